import Foundation
import LiveryRemote
import LiveryServer
import LiveryTestSupport
import LiveryTesting
import NIOHTTP1
import Testing

/// A progressive rollout (`livery push --rollout 10%,50%,100% --every 30m`) with 200 real
/// followers and a schedule clock the test moves: the share widens at each step's time and not
/// before, the plan completes at 100 %; a candidate the cohort refuses is aborted and the plan
/// stops there.
@Suite(.heavy, .timeLimit(.minutes(5)), .inotifyShared, .serialized)
struct ProgressiveRolloutTests {
    static let halfHour: TimeInterval = 1800

    /// `POST /v1/schedule` of a progressive rollout of box.yaml at 10 %, 50 %, 100 % every 30 minutes.
    static func plan(_ daemon: RunningDaemon, radius: Int, opacity: Bool = false) async throws -> String {
        let body: [String: Any] = [
            "action": "progressive", "percents": ["10%", "50%", "100%"], "every": "30m",
            "files": ["box.yaml": RolloutFleetTests.yaml(radius: radius, opacity: opacity)],
        ]
        let json = String(decoding: try JSONSerialization.data(withJSONObject: body), as: UTF8.self)
        let (status, answer) = try await RolloutFleetTests.call(daemon, .POST, "/v1/schedule", json: json)
        #expect(status == 201, "\(answer)")
        return try #require(answer["id"] as? String)
    }

    /// The rollout as `GET /v1/rollout` shows it.
    static func rollout(_ daemon: RunningDaemon) async throws -> [String: Any] {
        try await RolloutFleetTests.call(daemon, .GET, "/v1/rollout").1
    }

    /// The state of the scheduled change `id`.
    static func state(_ daemon: RunningDaemon, _ id: String) async throws -> String? {
        let changes = try await RolloutFleetTests.call(daemon, .GET, "/v1/schedule").1["changes"] as? [[String: Any]]
        return changes?.first { $0["id"] as? String == id }?["state"] as? String
    }

    @Test("200 followers: the share widens on time to 50 %, completes at 100 %; a refused candidate ends its plan")
    func widensOnTimeAndStopsAtTheFirstRefusal() async throws {
        let clock = ManualClock()
        let (daemon, fleet, folders) = try await RolloutFleetTests.start(roundOnly: true) { $0.scheduleClock = clock }
        defer { Task { await daemon.stop() } }
        defer { withExtendedLifetime(folders) {} }

        // The first step is now: the rollout starts at 10 %.
        let id = try await Self.plan(daemon, radius: 2)
        try await eventually { try await Self.rollout(daemon)["percent"] as? Double == 10 }
        let started = try RolloutFleetTests.rollout(try await Self.rollout(daemon))
        let tenth = Set((0..<fleet.count).filter { started.includes(instance: RolloutFleet.instance($0)) })
        try await eventually { fleet.hasConverged { tenth.contains($0) ? 2 : 1 } }

        // Not before its time; within a second of it.
        clock.advance(by: Self.halfHour - 1)
        try await Task.sleep(for: .milliseconds(300))
        #expect(try await Self.rollout(daemon)["percent"] as? Double == 10, "widened before its time")
        clock.advance(by: 1)
        let moved = ContinuousClock.now
        try await eventually { try await Self.rollout(daemon)["percent"] as? Double == 50 }
        // Read back through a daemon answering 200 followers that move at the same instant, on
        // a loaded machine: the bound of a fleet's move (the schedule's own second is
        // ScheduleTests' and EtcdScheduleTests').
        let widened = ContinuousClock.now - moved
        print("progressive rollout: 50 % read back \(widened) after its time")
        #expect(widened < RolloutCompletionTests.bound)
        var half = started
        half.basisPoints = 5000
        let fifty = Set((0..<fleet.count).filter { half.includes(instance: RolloutFleet.instance($0)) })
        try await eventually { fleet.hasConverged { fifty.contains($0) ? 2 : 1 } }

        clock.advance(by: Self.halfHour)
        try await eventually { try await Self.rollout(daemon)["state"] as? String == "completed" }
        try await eventually { fleet.hasConverged { _ in 2 } }
        try await eventually { try await Self.state(daemon, id) == "done" }

        // A candidate the cohort refuses (an opacity the followers cannot apply).
        let refused = try await Self.plan(daemon, radius: 3, opacity: true)
        try await eventually { try await Self.rollout(daemon)["state"] as? String == "aborted" }
        let aborted = try await Self.rollout(daemon)
        #expect((aborted["abortReason"] as? String ?? "").contains("refusal"), "\(aborted)")
        clock.advance(by: Self.halfHour)
        try await eventually { try await Self.state(daemon, refused) == "aborted" }
        let after = try await Self.rollout(daemon)
        #expect(after["percent"] as? Double == 10 && after["state"] as? String == "aborted", "\(after)")
        clock.advance(by: Self.halfHour)
        try await Task.sleep(for: .milliseconds(300))
        #expect(try await Self.rollout(daemon)["state"] as? String == "aborted")
        #expect(fleet.hasConverged { _ in 2 })
        await fleet.stop()
    }
}
