import Foundation
import LiveryTestSupport
import Testing

/// A real nginx running the shipped `deploy/nginx/livery.conf` in front of daemons on loopback
/// ports, as a child process with its own prefix (see ``LiveryTestSupport/NginxFrontConf``).
final class NginxFront {
    let root: URL
    let port: Int
    private let process: ChildProcess

    /// Starts nginx in front of the daemons on `daemonPorts` and returns once it accepts
    /// connections.
    init(daemonPorts: [Int]) async throws {
        try #require(
            FileManager.default.isExecutableFile(atPath: Nginx.binary),
            "nginx is not installed: run scripts/test, which installs it (apt-get install nginx)")
        root = FileManager.default.temporaryDirectory.appending(path: "livery-front-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root.appending(path: "tmp"), withIntermediateDirectories: true)
        port = try FreePort.pick()
        let config = root.appending(path: "nginx.conf")
        try NginxFrontConf.config(root: root.path, port: port, daemonPorts: daemonPorts, connections: 4096)
            .write(to: config, atomically: true, encoding: .utf8)
        process = try await Nginx.launch(root: root, config: config, port: port)
    }

    var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// Stops nginx and removes its folder. A fast shutdown (SIGTERM): a graceful quit would wait
    /// for the waits it still holds at the daemons, up to the read timeout.
    func stop() throws {
        try Nginx.stop(process, with: SIGTERM, removing: root)
    }
}
