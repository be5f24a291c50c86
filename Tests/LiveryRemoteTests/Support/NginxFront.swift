import Foundation
import LiveryTestSupport
import Testing

/// A real nginx running the shipped `deploy/nginx/livery.conf` in front of daemons on loopback
/// ports, as a child process with its own prefix (see ``LiveryTestSupport/NginxFrontConf``).
final class NginxFront {
    let root: URL
    let port: Int
    private var process: ChildProcess

    /// Starts nginx in front of the daemons on `daemonPorts`, listening on `port` (picked
    /// beforehand when the daemons are to warm it, see ``warmArguments(port:)``), and returns
    /// once it accepts connections.
    init(daemonPorts: [Int], port: Int? = nil) async throws {
        try #require(
            FileManager.default.isExecutableFile(atPath: Nginx.binary),
            "nginx is not installed: run scripts/test, which installs it (apt-get install nginx)")
        root = FileManager.default.temporaryDirectory.appending(path: "livery-front-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root.appending(path: "tmp"), withIntermediateDirectories: true)
        self.port = try port ?? FreePort.pick()
        let config = root.appending(path: "nginx.conf")
        try NginxFrontConf.config(root: root.path, port: self.port, daemonPorts: daemonPorts, connections: 4096)
            .write(to: config, atomically: true, encoding: .utf8)
        process = try await Nginx.launch(root: root, config: config, port: self.port)
    }

    /// `livery serve` arguments that warm a front on `port`, as the shipped conf asks.
    static func warmArguments(port: Int) -> [String] { ["--warm-front", "http://127.0.0.1:\(port)"] }

    var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// Fast shutdown (SIGTERM: every connection closed at once, as a crash would); returns once
    /// nginx has exited. ``start()`` starts it again.
    func kill() async {
        process.send(SIGTERM)
        await process.waitUntilExit()
    }

    /// Starts nginx again after ``kill()``, with the same conf, cache folder and port.
    func start() async throws {
        process = try await Nginx.launch(root: root, config: root.appending(path: "nginx.conf"), port: port)
    }

    /// Stops nginx and removes its folder. A fast shutdown (SIGTERM): a graceful quit would wait
    /// for the waits it still holds at the daemons, up to the read timeout.
    func stop() throws {
        try Nginx.stop(process, with: SIGTERM, removing: root)
    }
}
