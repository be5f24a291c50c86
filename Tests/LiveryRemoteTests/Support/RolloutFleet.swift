import AsyncHTTPClient
import Foundation
import Livery
import LiveryRemote
import LiveryServer
import LiveryTesting
import NIOCore
import Synchronization

/// A target that can only take a corner radius: a candidate that sets anything else on it is
/// refused by its provider, as a program of an older release would refuse a new trait.
final class RoundOnly: HasCornerRadius {
    var cornerRadius: Double = 0
}

/// Many real followers of one daemon, each a `TraitsProvider` following it with
/// `provider.follow(url:)` in the version mode under its own instance name (`follower-N`), its
/// target's corner radius recorded after each update, with the moment it changed, and every
/// failure its source reported.
final class RolloutFleet: Sendable {
    private struct State {
        var radii: [Double]
        /// Every radius each follower had, in order.
        var histories: [[Double]]
        /// When each follower's radius last changed.
        var changes: [ContinuousClock.Instant]
        /// Failures the followers' sources reported, all together.
        var failures = 0
    }

    let count: Int
    let appliedVersions: [AppliedVersion]
    private let state: Mutex<State>
    private let tasks: Mutex<[Task<Void, Never>]> = Mutex([])

    /// Starts `count` followers of `url`; with `roundOnly` their targets take only a radius.
    init(
        count: Int, url: URL, roundOnly: Bool = false, wait: Duration = .seconds(2),
        backoff: Backoff = Backoff(base: .milliseconds(50), cap: .milliseconds(500))
    ) {
        self.count = count
        appliedVersions = (0..<count).map { _ in AppliedVersion() }
        state = Mutex(
            State(
                radii: Array(repeating: 0, count: count), histories: Array(repeating: [], count: count),
                changes: Array(repeating: .now, count: count)))
        var started: [Task<Void, Never>] = []
        for index in 0..<count {
            let applied = appliedVersions[index]
            started.append(
                Task { [self] in
                    let provider = TraitsProvider()
                    let target: AnyObject = roundOnly ? RoundOnly() : StyledBoxTarget()
                    _ = provider.register(target, as: "box")
                    var configuration = RemoteSpecSource.Configuration()
                    configuration.identity = ClientIdentity(fitting: "rollout-test", instance: Self.instance(index))
                    configuration.backoff = backoff
                    await provider.follow(
                        url: url, mode: .version(wait: wait), configuration: configuration,
                        onUpdate: { result in
                            if case .failure = result { self.state.withLock { $0.failures += 1 } }
                            self.note(index, radius: Self.radius(of: target))
                        }, appliedVersion: applied)
                })
        }
        tasks.withLock { $0 = started }
    }

    /// The instance name of follower `index`.
    static func instance(_ index: Int) -> String { "follower-\(index)" }

    private static func radius(of target: AnyObject) -> Double {
        (target as? any HasCornerRadius)?.cornerRadius ?? -1
    }

    private func note(_ index: Int, radius: Double) {
        state.withLock { state in
            if state.radii[index] != radius { state.changes[index] = .now }
            state.radii[index] = radius
            if state.histories[index].last != radius { state.histories[index].append(radius) }
        }
    }

    /// Each follower's radius now.
    var radii: [Double] { state.withLock { $0.radii } }

    /// Every radius follower `index` had, in order.
    func history(_ index: Int) -> [Double] { state.withLock { $0.histories[index] } }

    /// When each follower's radius last changed.
    var changes: [ContinuousClock.Instant] { state.withLock { $0.changes } }

    /// Failures the followers' sources reported, all together.
    var failures: Int { state.withLock { $0.failures } }

    /// Whether each follower has the radius `expected` gives for its index.
    func hasConverged(_ expected: (Int) -> Double) -> Bool {
        radii.enumerated().allSatisfy { $0.element == expected($0.offset) }
    }

    /// Stops every follower.
    func stop() async {
        let running = tasks.withLock { $0 }
        for task in running { task.cancel() }
        for task in running { await task.value }
    }
}

/// `StyledBox` under the name the fleet registers.
typealias StyledBoxTarget = LiveryTesting.StyledBox
