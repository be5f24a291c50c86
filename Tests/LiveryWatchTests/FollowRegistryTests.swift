import Dispatch
import Foundation
import Livery
import LiveryTestSupport
import LiveryTesting
import LiveryWatch
import Synchronization
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

    /// The watcher's reads run in the caller's isolation, as the loads do: the new spec is read
    /// and applied with no hop to another thread in between. The caller here is an actor whose
    /// jobs all run on one thread of their own, so "where" is a thread that can be checked.
    @Test func followReadsSpecsInTheCallersIsolation() async throws {
        let folder = try TemporarySpecFolder()
        try folder.write("lamp.yaml", "specs: { lamp: [{ type: ThreadProbe, radius: 1 }] }")
        let styler = try ThreadBoundStyler()
        defer { styler.executor.stop() }
        let (outcomes, sink) = AsyncStream.makeStream(of: Result<LoadReport, any Error>.self)
        let following = Task { await styler.follow(folder.url, sink) }
        var iterator = outcomes.makeAsyncIterator()
        _ = try #require(await iterator.next()).get()
        try folder.atomicSave("lamp.yaml", "specs: { lamp: [{ type: ThreadProbe, radius: 2 }] }")
        _ = try #require(await iterator.next()).get()
        following.cancel()
        await following.value
        #expect(await styler.glow == 2)
        let thread = styler.executor.thread.withLock { $0 }
        #expect(ThreadProbe.decodingThreads.withLock { $0 } == [thread, thread])
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

/// A trait that notes, each time it is decoded, the thread that decoded it.
private struct ThreadProbe: Livery.Trait {
    static let typeName = "ThreadProbe"
    static let decodingThreads = Mutex<[pthread_t]>([])
    var radius: Double

    private enum CodingKeys: String, CodingKey { case radius }

    init(from decoder: any Decoder) throws {
        radius = try decoder.container(keyedBy: CodingKeys.self).decode(Double.self, forKey: .radius)
        Self.decodingThreads.withLock { $0.append(pthread_self()) }
    }

    func apply(to lamp: Lamp) throws -> Reversal<Lamp> {
        let old = lamp.glow
        lamp.glow = radius
        return Reversal { $0.glow = old }
    }
}

/// An actor whose jobs run on a thread of its own, and a lamp it styles with ``ThreadProbe``.
private actor ThreadBoundStyler {
    let executor = ThreadExecutor()
    let provider: TraitsProvider
    let lamp = Lamp()

    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    init() throws {
        let registry = TraitRegistry()
        try registry.register(ThreadProbe.self)
        provider = TraitsProvider(registry: registry)
        provider.register(lamp, as: "lamp")
    }

    func follow(_ folder: URL, _ sink: AsyncStream<Result<LoadReport, any Error>>.Continuation) async {
        await provider.follow(directory: folder) { sink.yield($0) }
    }

    var glow: Double { lamp.glow }
}

/// A serial executor that runs every job on one thread of its own, until stopped.
private final class ThreadExecutor: SerialExecutor {
    /// The thread, once it has started.
    let thread = Mutex<pthread_t>(0)
    private let jobs = Mutex<(queue: [UnownedJob], stopped: Bool)>(([], false))
    private let ready = DispatchSemaphore(value: 0)

    init() {
        Thread { [self] in
            thread.withLock { $0 = pthread_self() }
            while true {
                ready.wait()
                guard let job = jobs.withLock({ $0.stopped ? nil : $0.queue.removeFirst() }) else { return }
                job.runSynchronously(on: asUnownedSerialExecutor())
            }
        }.start()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        jobs.withLock { $0.queue.append(job) }
        ready.signal()
    }

    /// Ends the thread; jobs still queued are dropped.
    func stop() {
        jobs.withLock { $0.stopped = true }
        ready.signal()
    }
}
