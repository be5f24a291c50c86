import Foundation
import LiveryTestSupport

/// One etcd member (Debian's `/usr/bin/etcd`) on free loopback ports with a temporary data
/// folder, for the etcd figure; `scripts/bench` installs it.
final class EtcdMember {
    let clientURL: URL
    private let process: ChildProcess
    private let data: URL

    init() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/etcd") else {
            throw BenchError("/usr/bin/etcd is missing: install Debian's etcd-server (scripts/bench does)")
        }
        let client = try FreePort.find()
        let peer = try FreePort.find()
        data = FileManager.default.temporaryDirectory.appendingPathComponent("livery-bench-etcd-\(UUID().uuidString)")
        let url = "http://127.0.0.1:\(client)"
        guard let clientURL = URL(string: url) else { throw BenchError("bad URL \(url)") }
        self.clientURL = clientURL
        let process = ChildProcess(
            "/usr/bin/etcd",
            [
                "--name", "bench", "--data-dir", data.path, "--listen-client-urls", url, "--advertise-client-urls", url,
                "--listen-peer-urls", "http://127.0.0.1:\(peer)", "--initial-advertise-peer-urls",
                "http://127.0.0.1:\(peer)",
                "--log-level", "error",
            ])
        self.process = process
        try Blocking.run { try await process.start() }
        let deadline = ContinuousClock.now + .seconds(10)
        while (try? Command.run("/usr/bin/curl", ["-sf", url + "/health"]))?.contains(#""health":"true""#) != true {
            guard ContinuousClock.now < deadline else {
                stop()
                throw BenchError("etcd did not become healthy within 10 s")
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
    }

    deinit { stop() }

    func stop() {
        process.terminate()
        process.waitUntilExitBlocking()
        try? FileManager.default.removeItem(at: data)
    }
}
