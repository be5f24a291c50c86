import Foundation
import LiveryRemote
import LiveryServer
import LiveryTestSupport
import LiveryTesting
import NIOHTTP1
import Testing

/// A completed rollout reaches every one of 200 followers on one machine (one address) with the
/// daemon's default limits and the client's default backoff, as a new user's fleet has them:
/// the followers beyond the per-peer held-request limit must neither back off for a whole cap
/// nor report a failure.
@Suite(.heavy, .timeLimit(.minutes(5)), .inotifyShared, .serialized)
struct RolloutCompletionTests {
    /// Far below the version signal's wait and the backoff's cap (30 s each), and below the
    /// daemon's `Retry-After` (5 s): 200 followers from one address fit the default limits, so
    /// none is shed (with 128 held requests per peer, the shed ones moved 4.9 s late).
    static let bound = Duration.seconds(3)

    @Test("200 followers with default limits and backoff apply each completed or aborted rollout within seconds")
    func everyFollowerAppliesACompletedRolloutWithinSeconds() async throws {
        let folder = try TemporarySpecFolder(prefix: "livery-rollout-complete")
        let state = try TemporarySpecFolder(prefix: "livery-rollout-complete-state")
        try folder.write("box.yaml", RolloutFleetTests.yaml(radius: 1))
        let daemon = try await RunningDaemon.start(folder: folder) { $0.stateDirectory = state.url }
        defer { Task { await daemon.stop() } }
        let fleet = RolloutFleet(
            count: RolloutFleetTests.followers, url: daemon.url, wait: .seconds(30), backoff: Backoff())
        #expect(try await Self.converge(fleet) { _ in 1 } < .seconds(30))
        for radius in 2...4 {
            let rollout = try await RolloutFleetTests.startRollout(daemon, radius: radius, share: "50%")
            let cohort = Set((0..<fleet.count).filter { rollout.includes(instance: RolloutFleet.instance($0)) })
            let started = try await Self.converge(fleet) { cohort.contains($0) ? Double(radius) : Double(radius - 1) }
            let (completed, body) = try await RolloutFleetTests.call(
                daemon, .POST, "/v1/rollout", json: #"{"action": "complete"}"#, ifMatch: rollout.id)
            #expect(completed == 200, "\(body)")
            let latest = try await Self.converge(fleet) { _ in Double(radius) }
            print("round \(radius - 1): start reached all in \(started), complete in \(latest)")
            #expect(latest < Self.bound, "round \(radius - 1): the last follower moved \(latest) after completion")
        }
        let aborted = try await RolloutFleetTests.startRollout(daemon, radius: 5, share: "50%")
        let cohort = Set((0..<fleet.count).filter { aborted.includes(instance: RolloutFleet.instance($0)) })
        _ = try await Self.converge(fleet) { cohort.contains($0) ? 5 : 4 }
        let (abort, body) = try await RolloutFleetTests.call(
            daemon, .POST, "/v1/rollout", json: #"{"action": "abort"}"#, ifMatch: aborted.id)
        #expect(abort == 200, "\(body)")
        let back = try await Self.converge(fleet) { _ in 4 }
        print("abort: back in \(back)")
        #expect(back < Self.bound, "the last follower moved \(back) after the abort")
        #expect(fleet.failures == 0, "the followers reported \(fleet.failures) failures")
        await fleet.stop()
        withExtendedLifetime([folder, state]) {}
    }

    /// Waits (up to a wait and a cap) for every follower to have the radius `expected` gives it;
    /// how long after the call the last of them changed.
    static func converge(_ fleet: RolloutFleet, _ expected: (Int) -> Double) async throws -> Duration {
        let start = ContinuousClock.now
        while !fleet.hasConverged(expected), ContinuousClock.now - start < .seconds(65) {
            try await Task.sleep(for: .milliseconds(20))
        }
        let converged = fleet.hasConverged(expected)
        #expect(converged, "not every follower applied its version in 65 s")
        return (fleet.changes.max() ?? start) - start
    }
}
