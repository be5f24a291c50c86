import Foundation
import Synchronization

/// Concurrent traffic through daemons on one prefix, recorded for a fault test to judge: for
/// each daemon a reader (conditional `GET /v1/spec` and `/healthz`) and a long-poll follower
/// (`/v1/version`), and one writer pushing a new spec file through each daemon in turn.
final class ReadWriteStream: Sendable {
    /// One push and what it was answered.
    struct Write: Sendable {
        let path: String
        let status: Int
        let contentType: String?
        /// The body of a refusal (empty for a 2xx), to say why in a failed expectation.
        let detail: String
        let sent: ContinuousClock.Instant
        let answered: ContinuousClock.Instant
    }

    private let daemons: [TestDaemon]
    private let stopped = Mutex(false)
    private let recordedWrites = Mutex<[Write]>([])
    private let recordedFailures = Mutex<[String]>([])
    private let recordedReads = Mutex(0)
    private let recordedWakes = Mutex(0)

    /// The pushes so far, in order.
    var writes: [Write] { recordedWrites.withLock { $0 } }
    /// Every read that did not answer as a read must: a failed request or an unexpected status.
    var failures: [String] { recordedFailures.withLock { $0 } }
    /// How many conditional reads answered 200 or 304.
    var reads: Int { recordedReads.withLock { $0 } }
    /// How many long-polls were woken by a new version.
    var wakes: Int { recordedWakes.withLock { $0 } }
    /// The spec files whose push got a 2xx: each must be in the final state.
    var acknowledged: [String] { writes.filter { (200..<300).contains($0.status) }.map(\.path) }

    private init(daemons: [TestDaemon]) { self.daemons = daemons }

    /// Runs the traffic against `daemons` while `body` runs, then stops it and waits for it to end.
    static func run<T>(through daemons: [TestDaemon], _ body: (ReadWriteStream) async throws -> T) async throws -> T {
        let stream = ReadWriteStream(daemons: daemons)
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await stream.write() }
            for (index, daemon) in daemons.enumerated() {
                group.addTask { try await stream.read(daemon, name: "daemon \(index)") }
                group.addTask { try await stream.follow(daemon, name: "daemon \(index)") }
            }
            let result: Result<T, any Error>
            do { result = .success(try await body(stream)) } catch { result = .failure(error) }
            stream.stopped.withLock { $0 = true }
            try await group.waitForAll()
            return try result.get()
        }
    }

    private var isStopped: Bool { stopped.withLock { $0 } }

    private func fail(_ message: String) { recordedFailures.withLock { $0.append(message) } }

    private func write() async throws {
        var index = 0
        while !isStopped {
            let path = "stream\(index).yaml"
            let sent = ContinuousClock.now
            let reply = try await daemons[index % daemons.count].http.put(
                "/v1/specs/\(path)", "specs:\n  stream\(index): []\n")
            recordedWrites.withLock {
                $0.append(
                    Write(
                        path: path, status: reply.status, contentType: reply.header("Content-Type"),
                        detail: (200..<300).contains(reply.status) ? "" : reply.text, sent: sent,
                        answered: ContinuousClock.now))
            }
            index += 1
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    private func read(_ daemon: TestDaemon, name: String) async throws {
        var etag: String?
        while !isStopped {
            do {
                let reply = try await daemon.http.get("/v1/spec", headers: etag.map { [("If-None-Match", $0)] } ?? [])
                switch reply.status {
                case 200 where reply.header("ETag") != nil:
                    etag = reply.header("ETag")
                    recordedReads.withLock { $0 += 1 }
                case 304:
                    recordedReads.withLock { $0 += 1 }
                default:
                    fail("\(name): GET /v1/spec answered \(reply.status): \(reply.text)")
                }
                let health = try await daemon.http.get("/healthz")
                if health.status != 200 { fail("\(name): /healthz answered \(health.status)") }
            } catch {
                fail("\(name): a read failed: \(error)")
            }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    private func follow(_ daemon: TestDaemon, name: String) async throws {
        var since = ""
        while !isStopped {
            do {
                let encoded = since.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? since
                let reply = try await daemon.http.get("/v1/version?since=\(encoded)&wait=300ms")
                switch reply.status {
                case 200:
                    guard let etag = try reply.json()["etag"] as? String else {
                        fail("\(name): /v1/version answered 200 without an etag: \(reply.text)")
                        continue
                    }
                    if !since.isEmpty { recordedWakes.withLock { $0 += 1 } }
                    since = etag
                case 304:
                    continue
                default:
                    fail("\(name): /v1/version answered \(reply.status): \(reply.text)")
                }
            } catch {
                fail("\(name): a long-poll failed: \(error)")
            }
            try await Task.sleep(for: .milliseconds(10))
        }
    }
}
