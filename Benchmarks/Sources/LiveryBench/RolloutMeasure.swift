import AsyncHTTPClient
import Foundation
import LiveryRemote
import LiveryServer
import NIOCore
import NIOHTTP1

/// Figure 9's rollout rows: the same fleet, each client with its own instance name, following
/// nginx with the version signal; a rollout to 10 % is started, then aborted.
enum RolloutMeasure {
    /// Per step (start, abort): the time until the last member of the cohort applied it, and
    /// the daemon's requests; with the cohort's size.
    struct Measured {
        var cohort = 0
        var started: Duration = .zero
        var aborted: Duration = .zero
        var startRequests = 0
        var abortRequests = 0
        var failures = 0
        /// The failures by kind (``AppliedLog/failureKinds``).
        var failureKinds = ""
        /// The daemon's requests of each step by route, method and status.
        var startRoutes = ""
        var abortRoutes = ""
    }

    static func run(
        clients: Int, following base: URL, daemon: DaemonProcess, token: BearerToken, wait: Duration
    ) throws -> Measured {
        let daemonURL = "http://127.0.0.1:\(daemon.port)"
        // The earlier phase's fleet left waits that nginx may still hold, and with them its
        // clients' connections: a new fleet of as many clients could exceed
        // `worker_connections` (seen with the cache-locked front: 712 failed updates at the
        // start of this phase). One change answers those waits, so nginx lets them go, and the
        // rollout's changes then count only their own requests once the daemon is quiet.
        _ = try post(
            daemonURL + "/v1/specs",
            #"{"files": {"card.yaml": "specs:\n  card:\n    - { type: CornerRadius, radius: 9998 }\n"}}"#,
            token: token)
        try daemon.waitUntilQuiet(for: .seconds(2), atMost: .seconds(90))
        let applied = AppliedLog()
        let tasks = try FleetFigure.startFleet(clients: clients, applied: applied, label: "rollout") { index in
            let styler = CardStyler(targets: 1)
            return Task {
                await styler.follow(base, mode: .version(wait: wait), instance: "bench-\(index)", log: applied)
            }
        }
        defer { for task in tasks { task.cancel() } }
        var measured = Measured()
        Thread.sleep(forTimeInterval: 0.5)
        var before = try daemon.requestsByRoute()
        var start = ContinuousClock.now
        let id = try post(
            daemonURL + "/v1/specs",
            #"{"files": {"card.yaml": "specs:\n  card:\n    - { type: CornerRadius, radius: 9999 }\n"}, "rollout": "10%"}"#,
            token: token)
        let rollout = Rollout(id: id, basisPoints: 1000, stable: "", candidate: "")
        measured.cohort = (0..<clients).filter { rollout.includes(instance: "bench-\($0)") }.count
        guard applied.wait(for: clients + measured.cohort, timeout: .seconds(120)) else {
            throw BenchError(
                "rollout: \(applied.times.count - clients) of \(measured.cohort) in the cohort applied it")
        }
        measured.started = applied.times[clients + measured.cohort - 1] - start
        var after = try daemon.requestsByRoute()
        measured.startRequests = after.values.reduce(0, +) - before.values.reduce(0, +) - 1
        measured.startRoutes = after.growth(since: before)

        Thread.sleep(forTimeInterval: 0.5)
        before = try daemon.requestsByRoute()
        start = ContinuousClock.now
        _ = try post(daemonURL + "/v1/rollout", #"{"action": "abort"}"#, token: token)
        guard applied.wait(for: clients + 2 * measured.cohort, timeout: .seconds(120)) else {
            throw BenchError(
                "abort: \(applied.times.count - clients - measured.cohort) of \(measured.cohort) went back")
        }
        measured.aborted = applied.times[clients + 2 * measured.cohort - 1] - start
        after = try daemon.requestsByRoute()
        measured.abortRequests = after.values.reduce(0, +) - before.values.reduce(0, +) - 1
        measured.abortRoutes = after.growth(since: before)
        measured.failures = applied.failures
        measured.failureKinds = applied.failureKinds
        let following = tasks
        for task in following { task.cancel() }
        try Blocking.run { for task in following { await task.value } }
        return measured
    }

    /// POSTs `json`; the answer's `id` (the rollout's).
    private static func post(_ url: String, _ json: String, token: BearerToken) throws -> String {
        try Blocking.run {
            var request = HTTPClientRequest(url: url)
            request.method = .POST
            request.headers.add(name: "Authorization", value: token.authorizationHeader)
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(string: json))
            let response = try await HTTPClient.shared.execute(request, timeout: .seconds(10))
            let answer = try await response.body.collect(upTo: 1 << 20)
            guard response.status.code == 200 else {
                throw BenchError("POST \(url) answered \(response.status): \(String(buffer: answer))")
            }
            let object = try JSONSerialization.jsonObject(with: Data(answer.readableBytesView)) as? [String: Any]
            return object?["id"] as? String ?? ""
        }
    }
}
