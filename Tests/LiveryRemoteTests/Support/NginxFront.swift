import Foundation
import Testing

/// A real nginx running the shipped `deploy/nginx/livery.conf` in front of daemons on loopback
/// ports, as a child process with its own prefix. The conf is changed only where it names
/// places: the daemons' addresses, the listen port and the cache folder.
final class NginxFront {
    let root: URL
    let port: Int
    private let process: Process

    /// Starts nginx in front of the daemons on `daemonPorts` and returns once it accepts
    /// connections.
    init(daemonPorts: [Int]) throws {
        try #require(
            FileManager.default.isExecutableFile(atPath: Nginx.binary),
            "nginx is not installed: run scripts/test, which installs it (apt-get install nginx)")
        root = FileManager.default.temporaryDirectory.appending(path: "livery-front-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root.appending(path: "tmp"), withIntermediateDirectories: true)
        port = try FreePort.pick()
        let shipped = try String(contentsOf: Self.shippedConf, encoding: .utf8)
        let config = root.appending(path: "nginx.conf")
        try Self.config(
            root: root.path, site: Self.adapt(shipped, port: port, daemonPorts: daemonPorts, cache: root.path)
        )
        .write(to: config, atomically: true, encoding: .utf8)
        process = try Nginx.launch(root: root, config: config, port: port)
    }

    var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// Stops nginx (graceful quit) and removes its folder.
    func stop() throws {
        if process.isRunning {
            kill(process.processIdentifier, SIGQUIT)
            process.waitUntilExit()
        }
        try FileManager.default.removeItem(at: root)
    }

    /// The repository's `deploy/nginx/livery.conf`.
    static var shippedConf: URL {
        URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appending(path: "deploy/nginx/livery.conf")
    }

    /// The shipped site with this machine's places: its upstream servers replaced by
    /// `daemonPorts`, its listen port and its cache folder.
    static func adapt(_ shipped: String, port: Int, daemonPorts: [Int], cache: String) throws -> String {
        var lines: [String] = []
        var replacedUpstream = false
        for line in shipped.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("server 127.0.0.1:") {
                guard !replacedUpstream else { continue }
                replacedUpstream = true
                let options = trimmed.split(separator: " ").dropFirst(2).joined(separator: " ")
                lines += daemonPorts.map { "    server 127.0.0.1:\($0) \(options)" }
            } else if trimmed.hasPrefix("listen ") {
                lines.append("    listen 127.0.0.1:\(port);")
            } else {
                lines.append(String(line).replacingOccurrences(of: "/var/cache/nginx/livery", with: "\(cache)/cache"))
            }
        }
        try #require(replacedUpstream, "the shipped conf has an upstream of 127.0.0.1 servers")
        return lines.joined(separator: "\n")
    }

    private static func config(root: String, site: String) -> String {
        """
        worker_processes 1;
        pid \(root)/nginx.pid;
        error_log \(root)/error.log;
        events { worker_connections 4096; }
        http {
            access_log off;
            client_body_temp_path \(root)/tmp/body;
            proxy_temp_path \(root)/tmp/proxy;
            fastcgi_temp_path \(root)/tmp/fastcgi;
            uwsgi_temp_path \(root)/tmp/uwsgi;
            scgi_temp_path \(root)/tmp/scgi;
        \(site)
        }
        """
    }
}
