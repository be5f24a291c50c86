import AsyncHTTPClient
import Foundation
import LiveryTestSupport
import NIOCore
import NIOHTTP1

/// nginx running the shipped front, `deploy/nginx/livery.conf`, in front of daemons on
/// loopback, as a child process in the foreground with its own prefix under `root`; only the
/// conf's places change (see `NginxFrontConf`), and its `worker_connections` fit `connections`.
final class FleetFront {
    let port: Int
    private let process: ChildProcess
    private let errorLog: URL
    private let root: URL
    private let daemonPorts: [Int]
    private let connections: Int

    /// The `[alert]` lines of nginx's error log so far, such as "worker_connections are not
    /// enough" (a client's connection refused).
    var alerts: Int {
        let log = (try? String(contentsOf: errorLog, encoding: .utf8)) ?? ""
        return log.split(separator: "\n").filter { $0.contains("[alert]") }.count
    }

    /// Starts nginx on `port` (a free one when `nil`) and returns once a `GET /healthz` through
    /// it reaches a daemon.
    init(root: URL, daemonPorts: [Int], connections: Int, port: Int? = nil) throws {
        let nginx = "/usr/sbin/nginx"
        guard FileManager.default.isExecutableFile(atPath: nginx) else {
            throw BenchError("nginx is not installed: scripts/bench installs it (apt-get install nginx)")
        }
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("tmp"), withIntermediateDirectories: true)
        self.port = try port ?? FreePort.find()
        self.root = root
        self.daemonPorts = daemonPorts
        self.connections = connections
        let config = root.appendingPathComponent("nginx.conf")
        errorLog = root.appendingPathComponent("error.log")
        try Data(
            NginxFrontConf.config(root: root.path, port: self.port, daemonPorts: daemonPorts, connections: connections)
                .utf8
        ).write(to: config)
        let process = ChildProcess(
            nginx,
            [
                "-p", root.path, "-e", errorLog.path, "-c", config.path, "-g",
                "daemon off;",
            ])
        self.process = process
        try Blocking.run { try await process.start() }
        let health = "http://127.0.0.1:\(self.port)/healthz"
        let deadline = ContinuousClock.now + .seconds(10)
        while !Self.answers(health) {
            guard process.isRunning, ContinuousClock.now < deadline else {
                throw BenchError("nginx did not answer \(health) within 10 s (see \(root.path)/error.log)")
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
    }

    /// A new nginx with this one's conf, port and cache folder (this one stopped first).
    func restarted() throws -> FleetFront {
        try FleetFront(root: root, daemonPorts: daemonPorts, connections: connections, port: port)
    }

    /// SIGTERM (nginx's fast shutdown), then waits for the exit.
    func stop() {
        process.terminate()
        process.waitUntilExitBlocking()
    }

    private static func answers(_ url: String) -> Bool {
        let status = try? Blocking.run {  // not up yet: connection refused, or 502 from nginx
            let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: url), timeout: .seconds(2))
            _ = try await response.body.collect(upTo: 1 << 16)
            return response.status.code
        }
        return status == 200
    }
}
