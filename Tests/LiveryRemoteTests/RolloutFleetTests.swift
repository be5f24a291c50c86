import AsyncHTTPClient
import Foundation
import Livery
import LiveryRemote
import LiveryServer
import LiveryTestSupport
import LiveryTesting
import NIOCore
import NIOHTTP1
import Testing

/// Staged rollouts with 200 real followers (each a `TraitsProvider` following a real daemon on
/// a loopback port in the version mode, under its own instance name): who gets the candidate,
/// widening, abort, completion, and the daemon aborting by itself. One test at a time: each
/// starts 200 clients with their own HTTP clients.
@Suite(.heavy, .timeLimit(.minutes(5)), .inotifyShared, .serialized)
struct RolloutFleetTests {
    static let followers = 200
    static let token = "test-token-0123456789abcdef"

    static func yaml(radius: Int, opacity: Bool = false) -> String {
        "specs:\n  box:\n    - { type: CornerRadius, radius: \(radius) }\n"
            + (opacity ? "    - { type: Opacity, opacity: 0.5 }\n" : "")
    }

    /// A daemon with its state in a fresh folder, and `fleet` followers at radius 1.
    static func start(
        abortWhen: AbortThreshold = .first, roundOnly: Bool = false,
        configure: (inout DaemonConfiguration) -> Void = { _ in }
    ) async throws -> (RunningDaemon, RolloutFleet, [TemporarySpecFolder]) {
        let folder = try TemporarySpecFolder(prefix: "livery-rollout")
        let state = try TemporarySpecFolder(prefix: "livery-rollout-state")
        try folder.write("box.yaml", yaml(radius: 1))
        let daemon = try await RunningDaemon.start(folder: folder) { configuration in
            configuration.stateDirectory = state.url
            configuration.abortWhen = abortWhen
            configure(&configuration)
        }
        let fleet = RolloutFleet(count: followers, url: daemon.url, roundOnly: roundOnly)
        try await eventually { fleet.hasConverged { _ in 1 } }
        return (daemon, fleet, [folder, state])
    }

    /// A JSON request to the daemon with the push token; the status and the body.
    static func call(
        _ daemon: RunningDaemon, _ method: HTTPMethod, _ path: String, json: String? = nil, ifMatch: String? = nil
    ) async throws -> (Int, [String: Any]) {
        var request = HTTPClientRequest(url: daemon.url.absoluteString + path)
        request.method = method
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        if let ifMatch { request.headers.add(name: "If-Match", value: ifMatch) }
        if let json {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(string: json))
        }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(10))
        let body = try await response.body.collect(upTo: 1 << 20)
        let object = (try? JSONSerialization.jsonObject(with: Data(body.readableBytesView))) as? [String: Any]
        return (Int(response.status.code), object ?? [:])
    }

    /// `POST /v1/specs` of box.yaml as a rollout's candidate; the rollout's id.
    static func startRollout(
        _ daemon: RunningDaemon, radius: Int, share: String, opacity: Bool = false, replace: Bool = false
    ) async throws -> Rollout {
        let content = String(data: try JSONEncoder().encode(yaml(radius: radius, opacity: opacity)), encoding: .utf8)!
        let (status, body) = try await call(
            daemon, .POST, "/v1/specs",
            json: #"{"files": {"box.yaml": \#(content)}, "rollout": "\#(share)", "replace": \#(replace)}"#)
        #expect(status == 200, "\(body)")
        return try rollout(body)
    }

    static func rollout(_ body: [String: Any]) throws -> Rollout {
        let state = try #require(Rollout.State(rawValue: body["state"] as? String ?? ""))
        return Rollout(
            id: try #require(body["id"] as? String),
            basisPoints: Int((((body["percent"] as? Double) ?? -1) * 100).rounded()),
            stable: body["stable"] as? String ?? "", candidate: body["candidate"] as? String ?? "", state: state)
    }

    @Test("10 % gets exactly the formula's clients, 50 % only adds, abort returns all, complete moves all")
    func widenAbortComplete() async throws {
        let (daemon, fleet, folders) = try await Self.start()
        defer { Task { await daemon.stop() } }
        let folder = folders[0]

        let rollout = try await Self.startRollout(daemon, radius: 2, share: "10%")
        #expect(rollout.basisPoints == 1000 && rollout.state == .running)
        let tenth = Set((0..<Self.followers).filter { rollout.includes(instance: RolloutFleet.instance($0)) })
        // The rollout id is the daemon's (random), so the draw is too: this only checks the test
        // is not vacuous (RolloutTests pins the formula). 8...40 failed about once in a thousand
        // runs; none of 200 at 10 % is a 7e-10 chance.
        #expect(!tenth.isEmpty && tenth.count < Self.followers / 2, "10 % of 200 drew \(tenth.count)")
        try await eventually { fleet.hasConverged { tenth.contains($0) ? 2 : 1 } }
        try await Task.sleep(for: .milliseconds(300))  // nobody else moves later
        #expect(fleet.hasConverged { tenth.contains($0) ? 2 : 1 })
        try await eventually {
            let (_, status) = try await Self.call(daemon, .GET, "/v1/rollout")
            let cohort = status["cohort"] as? [String: Int]
            return cohort?["expected"] == tenth.count && cohort?["applied"] == tenth.count
        }
        // The stable version on disk did not change.
        #expect(try String(contentsOf: folder.url("box.yaml"), encoding: .utf8) == Self.yaml(radius: 1))

        let (widened, body) = try await Self.call(
            daemon, .POST, "/v1/rollout", json: #"{"action": "set", "percent": 50}"#, ifMatch: rollout.id)
        #expect(widened == 200, "\(body)")
        var half = rollout
        half.basisPoints = 5000
        let fifty = Set((0..<Self.followers).filter { half.includes(instance: RolloutFleet.instance($0)) })
        #expect(tenth.isSubset(of: fifty))
        try await eventually { fleet.hasConverged { fifty.contains($0) ? 2 : 1 } }
        for index in tenth { #expect(fleet.history(index) == [1, 2], "follower \(index) went back while widening") }

        let (stale, _) = try await Self.call(
            daemon, .POST, "/v1/rollout", json: #"{"action": "abort"}"#, ifMatch: "another-rollout")
        #expect(stale == 412)
        let (aborted, _) = try await Self.call(
            daemon, .POST, "/v1/rollout", json: #"{"action": "abort", "reason": "test"}"#, ifMatch: rollout.id)
        #expect(aborted == 200)
        try await eventually { fleet.hasConverged { _ in 1 } }
        let (_, afterAbort) = try await Self.call(daemon, .GET, "/v1/rollout")
        #expect(afterAbort["state"] as? String == "aborted" && afterAbort["abortReason"] as? String == "test")

        let second = try await Self.startRollout(daemon, radius: 3, share: "10%")
        #expect(second.id != rollout.id)
        let (conflict, refusal) = try await Self.call(
            daemon, .POST, "/v1/specs", json: #"{"files": {"box.yaml": "specs: {}\n"}}"#)
        #expect(conflict == 409 && (refusal["detail"] as? String ?? "").contains(second.id))
        let (completed, _) = try await Self.call(
            daemon, .POST, "/v1/rollout", json: #"{"action": "complete"}"#, ifMatch: second.id)
        #expect(completed == 200)
        try await eventually { fleet.hasConverged { _ in 3 } }
        #expect(try String(contentsOf: folder.url("box.yaml"), encoding: .utf8) == Self.yaml(radius: 3))
        withExtendedLifetime(folders) {}
        for index in 0..<Self.followers where second.includes(instance: RolloutFleet.instance(index)) {
            #expect(fleet.history(index).last(where: { $0 != 3 }) == 1, "follower \(index) flickered")
            #expect(fleet.history(index).suffix(1) == [3])
        }
        await fleet.stop()
    }

    @Test("a candidate the cohort refuses is aborted by the daemon, without any command")
    func refusalAborts() async throws {
        let (daemon, fleet, folders) = try await Self.start(roundOnly: true)
        defer { Task { await daemon.stop() } }
        defer { withExtendedLifetime(folders) {} }
        let rollout = try await Self.startRollout(daemon, radius: 2, share: "10%", opacity: true)
        try await eventually {
            let (_, status) = try await Self.call(daemon, .GET, "/v1/rollout")
            return status["state"] as? String == "aborted"
        }
        let (_, status) = try await Self.call(daemon, .GET, "/v1/rollout")
        #expect((status["abortReason"] as? String ?? "").contains("refusal by follower-"), "\(status)")
        #expect(status["id"] as? String == rollout.id)
        let aborts = #"livery_rollout_aborts_total{environment="default",by="daemon"} 1"#
        #expect(daemon.daemon.metrics.render().contains(aborts))
        let (_, daemonStatus) = try await Self.call(daemon, .GET, "/v1/status")
        #expect((daemonStatus["rollout"] as? [String: Any])?["state"] as? String == "aborted")
        try await Task.sleep(for: .milliseconds(300))
        #expect(fleet.hasConverged { _ in 1 })
        await fleet.stop()
    }

    @Test("a problem one cohort client reports aborts the rollout; every client returns to stable")
    func problemAborts() async throws {
        let (daemon, fleet, folders) = try await Self.start()
        defer { Task { await daemon.stop() } }
        defer { withExtendedLifetime(folders) {} }
        try await Self.expectProblemReportAborts(daemon, fleet)
        await fleet.stop()
    }

    /// Starts a 10 % rollout, waits for its cohort to apply it, has one cohort client report a
    /// problem, and expects the daemon to abort the rollout for it and every client back at radius 1.
    static func expectProblemReportAborts(_ daemon: RunningDaemon, _ fleet: RolloutFleet) async throws {
        let rollout = try await startRollout(daemon, radius: 2, share: "10%")
        let tenth = Set((0..<fleet.count).filter { rollout.includes(instance: RolloutFleet.instance($0)) })
        try await eventually { fleet.hasConverged { tenth.contains($0) ? 2 : 1 } }
        let reporter = try #require(tenth.min())
        #expect(fleet.appliedVersions[reporter].reportProblem("checkout button unreadable"))
        try await eventually { fleet.hasConverged { _ in 1 } }
        let (_, status) = try await call(daemon, .GET, "/v1/rollout")
        #expect(status["state"] as? String == "aborted")
        #expect((status["abortReason"] as? String ?? "").contains("checkout button unreadable"), "\(status)")
        #expect((status["cohort"] as? [String: Int])?["problems"] == 1)
    }
}

/// A rollout outlives its daemon: the state file brings it back at the next start.
@Suite(.timeLimit(.minutes(1)), .inotifyShared)
struct RolloutRestartTests {
    @Test func aRestartedDaemonKeepsTheRollout() async throws {
        let folder = try TemporarySpecFolder(prefix: "livery-rollout-restart")
        let state = try TemporarySpecFolder(prefix: "livery-rollout-restart-state")
        try folder.write("box.yaml", RolloutFleetTests.yaml(radius: 1))
        let configure: (inout DaemonConfiguration) -> Void = { $0.stateDirectory = state.url }
        let first = try await RunningDaemon.start(folder: folder, configure: configure)
        let rollout = try await RolloutFleetTests.startRollout(first, radius: 2, share: "25%")
        await first.stop()

        let second = try await RunningDaemon.start(folder: folder, configure: configure)
        defer { Task { await second.stop() } }
        let (status, signal) = try await RolloutFleetTests.call(second, .GET, "/v1/version")
        #expect(status == 200)
        let carried = try RolloutFleetTests.rollout(try #require(signal["rollout"] as? [String: Any]))
        #expect(carried == rollout)
        let candidate = EntityTag.opaque(of: rollout.candidate)
        let (fetched, _) = try await RolloutFleetTests.call(second, .GET, "/v1/spec/\(candidate)")
        #expect(fetched == 200)
        // Still running: a plain write is refused until it ends.
        let (refused, _) = try await RolloutFleetTests.call(
            second, .POST, "/v1/specs", json: #"{"files": {"box.yaml": "specs: {}\n"}}"#)
        #expect(refused == 409)
    }
}

/// With a read token, a report counts against a rollout only when its request carries the token:
/// the fleet table's rule, so a forged refusal cannot abort a rollout: in the header of the
/// version signal's requests, or of a report sent at once.
@Suite(.timeLimit(.minutes(1)), .inotifyShared)
struct RolloutForgedReportTests {
    @Test(arguments: [("/v1/version", 200), ("/v1/reports", 204)])
    func aForgedRefusalAbortsNothing(path: String, answered: Int) async throws {
        let folder = try TemporarySpecFolder(prefix: "livery-rollout-forged")
        let state = try TemporarySpecFolder(prefix: "livery-rollout-forged-state")
        try folder.write("box.yaml", RolloutFleetTests.yaml(radius: 1))
        let readToken = "read-token-0123456789abcdef"
        let daemon = try await RunningDaemon.start(folder: folder) {
            $0.stateDirectory = state.url
            $0.readToken = try? BearerToken(readToken)
        }
        defer { Task { await daemon.stop() } }
        let rollout = try await RolloutFleetTests.startRollout(daemon, radius: 2, share: "100%")
        func report(token: String?) async throws -> Int {
            var request = HTTPClientRequest(url: daemon.url.absoluteString + path)
            request.method = path == "/v1/reports" ? .POST : .GET
            if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
            let header = LiveryClientHeader(
                identity: try ClientIdentity(name: "forger", instance: "host-1"), refused: rollout.candidate)
            request.headers.add(name: LiveryClientHeader.fieldName, value: header.fieldValue)
            let response = try await HTTPClient.shared.execute(request, timeout: .seconds(5))
            _ = try await response.body.collect(upTo: 1 << 16)
            return Int(response.status.code)
        }
        #expect(try await report(token: nil) == 401)
        #expect(try await report(token: "wrong-token-0123456789abcdef") == 401)
        try await Task.sleep(for: .milliseconds(200))
        let (_, running) = try await RolloutFleetTests.call(daemon, .GET, "/v1/rollout")
        #expect(running["state"] as? String == "running")
        #expect(try await report(token: readToken) == answered)
        try await eventually {
            let (_, status) = try await RolloutFleetTests.call(daemon, .GET, "/v1/rollout")
            return status["state"] as? String == "aborted"
        }
    }
}

/// `POST /v1/reports`: a client's report at once, its `Livery-Client` header recorded as every
/// request's is; no body.
@Suite(.timeLimit(.minutes(1)), .inotifyShared)
struct ReportRouteTests {
    @Test func aReportIsRecordedAndAnsweredWithNoContent() async throws {
        let folder = try TemporarySpecFolder(prefix: "livery-report-route")
        let state = try TemporarySpecFolder(prefix: "livery-report-route-state")
        try folder.write("box.yaml", RolloutFleetTests.yaml(radius: 1))
        let daemon = try await RunningDaemon.start(folder: folder) { $0.stateDirectory = state.url }
        defer { Task { await daemon.stop() } }
        let rollout = try await RolloutFleetTests.startRollout(daemon, radius: 2, share: "100%")
        func post(_ header: LiveryClientHeader?, body: String? = nil) async throws -> HTTPClientResponse {
            var request = HTTPClientRequest(url: daemon.url.absoluteString + "/v1/reports")
            request.method = .POST
            if let header { request.headers.add(name: LiveryClientHeader.fieldName, value: header.fieldValue) }
            if let body { request.body = .bytes(ByteBuffer(string: body)) }
            let response = try await HTTPClient.shared.execute(request, timeout: .seconds(5))
            _ = try await response.body.collect(upTo: 1 << 16)
            return response
        }
        #expect(try await post(nil, body: #"{"refused": "x"}"#).status.code == 413)
        let (_, before) = try await RolloutFleetTests.call(daemon, .GET, "/v1/clients")
        #expect(before["clients"] as? Int == 0)
        let header = LiveryClientHeader(
            identity: try ClientIdentity(name: "refuser", instance: "host-7"), refused: rollout.candidate)
        let answer = try await post(header)
        #expect(answer.status.code == 204)
        #expect(answer.headers.first(name: "Cache-Control") == "no-store")
        let (_, after) = try await RolloutFleetTests.call(daemon, .GET, "/v1/clients")
        #expect(after["clients"] as? Int == 1, "\(after)")
        try await eventually {
            let (_, status) = try await RolloutFleetTests.call(daemon, .GET, "/v1/rollout")
            return status["state"] as? String == "aborted"
        }
        let (_, status) = try await RolloutFleetTests.call(daemon, .GET, "/v1/rollout")
        #expect((status["abortReason"] as? String ?? "").contains("refusal by host-7"), "\(status)")
    }
}
