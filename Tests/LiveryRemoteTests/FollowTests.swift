import Foundation
import Livery
import LiveryRemote
import LiveryTesting
import Testing

/// `provider.follow(url:)` from the main actor and from a custom actor: it loads each new spec,
/// keeps the last good one on errors, and stops when its task is cancelled.
@Suite(.timeLimit(.minutes(1)))
struct FollowTests {
    private static let mode = RemoteSpecSource.Mode.longPoll(wait: .seconds(20))
    private static let configuration = RemoteSpecSource.Configuration(
        backoff: Backoff(base: .milliseconds(50), cap: .milliseconds(200)))

    @MainActor
    final class Results {
        var reports: [LoadReport] = []
        var errors: [any Error] = []
    }

    @Test("on the main actor") @MainActor
    func mainActor() async throws {
        let store = BundleStore(bundle: bundle(radius: 1))
        let daemon = try await StandInDaemon.start(store: store)
        let provider = TraitsProvider()
        let box = StyledBox()
        provider.register(box, as: "box")
        let results = Results()
        let task = Task {
            await provider.follow(url: daemon.url, mode: Self.mode, configuration: Self.configuration) { result in
                switch result {
                case .success(let report): results.reports.append(report)
                case .failure(let error): results.errors.append(error)
                }
            }
        }
        try await eventually { box.cornerRadius == 1 }
        store.set(bundle(radius: 2))
        try await eventually { box.cornerRadius == 2 }
        store.set(#"{"specs": {"box": [{"type": "CornerRadius", "radius": "round"}]}}"#)
        try await eventually { !results.errors.isEmpty }
        #expect(box.cornerRadius == 2)  // the last good spec stays applied
        #expect(results.errors.first is SpecError)
        #expect(results.reports.count == 2)

        let clock = ContinuousClock()
        let start = clock.now
        task.cancel()
        await task.value
        #expect(clock.now - start < .seconds(2))
        await daemon.stop()
    }

    /// A program that keeps its provider and targets in an actor of its own.
    actor Host {
        let provider = TraitsProvider()
        let box = StyledBox()
        private var task: Task<Void, Never>?

        init() { provider.register(box, as: "box") }

        func start(_ url: URL) {
            task = Task { await self.follow(url) }
        }

        private func follow(_ url: URL) async {
            await provider.follow(url: url, mode: FollowTests.mode, configuration: FollowTests.configuration)
        }

        func stop() async {
            task?.cancel()
            await task?.value
        }

        var radius: Double { box.cornerRadius }
    }

    @Test("on a custom actor")
    func customActor() async throws {
        let store = BundleStore(bundle: bundle(radius: 3))
        let daemon = try await StandInDaemon.start(store: store)
        let host = Host()
        await host.start(daemon.url)
        try await eventually { await host.radius == 3 }
        store.set(bundle(radius: 4))
        try await eventually { await host.radius == 4 }
        await host.stop()
        store.set(bundle(radius: 5))
        try await Task.sleep(for: .milliseconds(200))
        #expect(await host.radius == 4)  // stopped: no more loads
        await daemon.stop()
    }
}
