import Foundation
import LiveryServer
import LiveryTestSupport
import LiveryTesting
import NIOHTTP1
import PropertyBased
import Testing

/// For random sequences of rollouts started (or replaced), widened or narrowed, aborted and
/// completed, every follower ends on the version the cohort formula and the rollout's state say.
@Suite(.heavy, .timeLimit(.minutes(5)), .inotifyShared)
struct RolloutPropertyTests {
    /// The model: the stable radius, and the running rollout with its candidate's radius.
    private struct Model {
        var stable = 1
        var running: (rollout: Rollout, radius: Int)?
        var nextRadius = 2

        func expected(_ index: Int) -> Double {
            guard let running, running.rollout.includes(instance: RolloutFleet.instance(index)) else {
                return Double(stable)
            }
            return Double(running.radius)
        }
    }

    @Test func everyFollowerEndsWhereTheFormulaAndTheStateSay() async throws {
        let folder = try TemporarySpecFolder(prefix: "livery-rollout-property")
        let state = try TemporarySpecFolder(prefix: "livery-rollout-property-state")
        try folder.write("box.yaml", RolloutFleetTests.yaml(radius: 1))
        let daemon = try await RunningDaemon.start(folder: folder) { $0.stateDirectory = state.url }
        defer { Task { await daemon.stop() } }
        let fleet = RolloutFleet(count: 60, url: daemon.url)
        var model = Model()
        try await eventually { fleet.hasConverged { _ in 1 } }

        await propertyCheck(count: 15, input: Gen.int(in: 0...1_000_000).array(of: 2...6)) { seeds in
            do {
                for seed in seeds { try await Self.apply(seed, to: &model, daemon: daemon, fleet: fleet) }
                // Each sequence starts from no rollout running.
                if model.running != nil { try await Self.apply(2, to: &model, daemon: daemon, fleet: fleet) }
            } catch {
                Issue.record("\(error)")
            }
        }
        await fleet.stop()
    }

    /// One step, chosen by `seed`: start (or replace), set, abort or complete; then the fleet
    /// converges on what the model says.
    private static func apply(
        _ seed: Int, to model: inout Model, daemon: RunningDaemon, fleet: RolloutFleet
    ) async throws {
        let points = (seed / 4) % 10_001
        let share = Rollout.percentText(points)
        switch seed % 4 {
        case 0:
            let radius = model.nextRadius
            model.nextRadius += 1
            let rollout = try await RolloutFleetTests.startRollout(
                daemon, radius: radius, share: share, replace: model.running != nil)
            #expect(rollout.basisPoints == points)
            model.running = (rollout, radius)
        case 1:
            let (status, _) = try await RolloutFleetTests.call(
                daemon, .POST, "/v1/rollout", json: #"{"action": "set", "percent": "\#(share)"}"#)
            #expect(status == (model.running == nil ? 409 : 200))
            model.running?.rollout.basisPoints = points
        case 2:
            let (status, _) = try await RolloutFleetTests.call(
                daemon, .POST, "/v1/rollout", json: #"{"action": "abort"}"#)
            #expect(status == (model.running == nil ? 409 : 200))
            model.running = nil
        default:
            let (status, _) = try await RolloutFleetTests.call(
                daemon, .POST, "/v1/rollout", json: #"{"action": "complete"}"#)
            #expect(status == (model.running == nil ? 409 : 200))
            if let running = model.running { model.stable = running.radius }
            model.running = nil
        }
        let expected = model
        try await eventually { fleet.hasConverged(expected.expected) }
    }
}
