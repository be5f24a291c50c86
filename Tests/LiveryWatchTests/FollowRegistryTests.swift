import Foundation
import LiveryTestSupport
import LiveryTesting
import LiveryWatch
import Testing

/// `provider.follow(directory:)` decodes with the provider's registry, not the standard one, so a
/// program's own trait types work through the folder conveniences.
@Suite(.timeLimit(.minutes(1)), .inotifyShared) struct FollowRegistryTests {
    @MainActor @Test func followDecodesWithTheProvidersRegistry() async throws {
        let registry = try Glow.registry()
        let folder = try TemporarySpecFolder()
        try folder.write("lamp.yaml", "specs: { lamp: [{ type: Glow, radius: 4 }] }")
        let provider = TraitsProvider(registry: registry)
        let lamp = Lamp()
        provider.register(lamp, as: "lamp")
        let (outcomes, sink) = AsyncStream.makeStream(of: Result<LoadReport, any Error>.self)
        // Even a loader made for the standard registry reads with the provider's.
        let following = Task {
            await provider.follow(directory: folder.url, loader: SpecFolderLoader()) { sink.yield($0) }
        }
        var iterator = outcomes.makeAsyncIterator()
        let first = try #require(await iterator.next())
        #expect(try first.get().changedIdentifiers == ["lamp"])
        #expect(lamp.glow == 4)

        try folder.atomicSave("lamp.yaml", "specs: { lamp: [] }")
        _ = try #require(await iterator.next()).get()
        #expect(lamp.glow == 0)
        following.cancel()
        await following.value
    }

    @Test func specWatcherDecodesWithTheGivenRegistry() async throws {
        let registry = try Glow.registry()
        let folder = try TemporarySpecFolder()
        try folder.write("lamp.yaml", "specs: { lamp: [{ type: Glow, radius: 2 }] }")
        let watcher = SpecWatcher(directory: folder.url, registry: registry)
        var iterator = watcher.makeAsyncIterator()
        let update = try #require(await iterator.next())
        guard case .loaded(let spec, _) = update else {
            Issue.record("expected the spec to load, got \(update)")
            return
        }
        #expect(spec.identifiers == ["lamp"])
        await watcher.stop()
    }
}
