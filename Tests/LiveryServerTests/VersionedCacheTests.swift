import NIOCore
import Synchronization
import Testing

@testable import LiveryServer

/// The cache of bodies made once per version: the listing per store version, historic bundles.
@Suite(.timeLimit(.minutes(1))) struct VersionedCacheTests {
    /// A body maker that counts its makings and holds each one until released.
    private final class Maker: Sendable {
        let makings = Atomic(0)
        let released = Atomic(false)
        let failures = Atomic(0)

        func make() async throws(StoreError) -> ByteBuffer {
            let making = makings.add(1, ordering: .relaxed).newValue
            while !released.load(ordering: .relaxed) { try? await Task.sleep(for: .milliseconds(1)) }
            if failures.load(ordering: .relaxed) >= making { throw .notFound("made \(making)") }
            return ByteBuffer(string: "made \(making)")
        }

        /// Waits until `count` makings have started.
        func started(_ count: Int) async {
            while makings.load(ordering: .relaxed) < count { try? await Task.sleep(for: .milliseconds(1)) }
        }
    }

    @Test func requestsThatMissTogetherWaitForOneMaking() async throws {
        let cache = VersionedCache<Int>(capacity: 1)
        let maker = Maker()
        let requests = (0..<8).map { _ in
            Task { () throws(StoreError) -> String in
                let entry = try await cache.entry(for: 1, make: maker.make)
                return String(buffer: entry.body)
            }
        }
        await maker.started(1)
        try await Task.sleep(for: .milliseconds(100))  // the other requests arrive meanwhile
        maker.released.store(true, ordering: .relaxed)
        for request in requests { #expect(try await request.value == "made 1") }
        #expect(String(buffer: try await cache.entry(for: 1, make: maker.make).body) == "made 1")
        #expect(maker.makings.load(ordering: .relaxed) == 1)
    }

    @Test func aFailureIsNotKept() async throws {
        let cache = VersionedCache<Int>(capacity: 1)
        let maker = Maker()
        maker.released.store(true, ordering: .relaxed)
        maker.failures.store(1, ordering: .relaxed)
        await #expect(throws: StoreError.notFound("made 1")) { try await cache.entry(for: 1, make: maker.make) }
        #expect(String(buffer: try await cache.entry(for: 1, make: maker.make).body) == "made 2")
    }

    @Test func aBodyMadeBeforeRemoveAllIsNotKept() async throws {
        let cache = VersionedCache<Int>(capacity: 1)
        let maker = Maker()
        let early = Task { () throws(StoreError) -> String in
            String(buffer: try await cache.entry(for: 1, make: maker.make).body)
        }
        await maker.started(1)
        cache.removeAll()
        maker.released.store(true, ordering: .relaxed)
        #expect(try await early.value == "made 1")
        #expect(String(buffer: try await cache.entry(for: 1, make: maker.make).body) == "made 2")
    }

    @Test func theLeastRecentlyMadeGoPastCapacity() async throws {
        let cache = VersionedCache<Int>(capacity: 2)
        let maker = Maker()
        maker.released.store(true, ordering: .relaxed)
        for version in [1, 2, 3] { _ = try await cache.entry(for: version, make: maker.make) }
        #expect(String(buffer: try await cache.entry(for: 3, make: maker.make).body) == "made 3")
        #expect(String(buffer: try await cache.entry(for: 2, make: maker.make).body) == "made 2")
        #expect(String(buffer: try await cache.entry(for: 1, make: maker.make).body) == "made 4")
    }
}
