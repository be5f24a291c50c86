import Foundation
import Livery
import LiveryHTTP
import Logging
import NIOCore
import Synchronization
import Testing

@testable import LiveryServer

/// The version signal a daemon publishes to a front (`--warm-front`) carries the bundles it
/// names, and a client takes a carried bundle only when its bytes are the version's.
struct CarriedSignalTests {
    private static func signal(_ buffer: ByteBuffer) throws -> VersionSignal {
        try JSONDecoder().decode(VersionSignal.self, from: Data(buffer.readableBytesView))
    }

    @Test func theSignalCarriesEachVersionsBundleByteForByte() throws {
        let stable = BundleSnapshot(
            bundleJSON: #"{"specs":{"box":[{"type":"CornerRadius","radius":1}]},"note":"é \"q\" \\ /"}"#)
        let candidate = BundleSnapshot(bundleJSON: #"{"specs":{"box":[{"type":"CornerRadius","radius":2}]}}"#)
        let carried = try Self.signal(stable.versionSignal(carrying: [stable, candidate]))
        #expect(carried.etag == stable.etagText)
        #expect(
            carried.carriedBundle(of: stable.etagText).map { Array($0.utf8) } == Array(stable.bytes.readableBytesView))
        #expect(
            carried.carriedBundle(of: BundlePath.urlForm(of: candidate.etagText)).map { Array($0.utf8) }
                == Array(candidate.bytes.readableBytesView), "named with or without quotes")
        #expect(try Self.signal(stable.versionSignal).bundles == nil, "a daemon's own answer stays small")
    }

    @Test func aBundleWhoseBytesAreNotTheVersionsIsNotTaken() throws {
        let stable = BundleSnapshot(bundleJSON: #"{"specs":{"box":[{"type":"CornerRadius","radius":1}]}}"#)
        var signal = try Self.signal(stable.versionSignal(carrying: [stable]))
        signal.bundles = [stable.etagText: #"{"specs":{"box":[{"type":"CornerRadius","radius":9}]}}"#]
        #expect(signal.carriedBundle(of: stable.etagText) == nil, "another version's bytes under this tag")
        #expect(signal.carriedBundle(of: "\"0123456789abcdef\"") == nil, "a version not carried")
    }

    @Test func bundlesLargerThanTheBoundAreLeftToBeFetched() throws {
        let padding = String(repeating: "x", count: VersionSignal.carriedBundleBytes)
        let large = BundleSnapshot(bundleJSON: #"{"specs":{},"padding":"\#(padding)"}"#)
        let carried = try Self.signal(large.versionSignal(carrying: [large]))
        #expect(carried.bundles == nil)
        #expect(carried.etag == large.etagText)
    }
}

/// The hub tells a wait for the version signal of a new version only once what must come first
/// (signed delivery's signing, ``BundleHub/prepareSignals(_:)``) is done; other waits at once.
struct SignalPreparationTests {
    private final class Flag: Sendable {
        let value = Mutex(false)
    }

    /// A waiting client that reports, when told of a version, whether the preparation was done.
    private struct Wait: BundleSubscriber {
        let id: Int
        let waitsForSignal: Bool
        let prepared: Flag
        let told: AsyncStream<Bool>.Continuation
        func deliver(_ snapshot: BundleSnapshot) { told.yield(prepared.value.withLock { $0 }) }
        func close() { told.finish() }
    }

    private static func spec(radius: Int) throws -> Spec {
        try Spec(
            data: Data("specs:\n  box:\n    - { type: CornerRadius, radius: \(radius) }\n".utf8), format: .yaml,
            source: "box.yaml")
    }

    @Test func aWaitForTheSignalIsToldOnlyOnceTheVersionIsPrepared() async throws {
        let hub = BundleHub(
            metrics: EnvironmentMetrics(environment: "default", server: ServerMetrics()),
            logger: Logger(label: "test"), warmer: nil)
        let prepared = Flag()
        hub.prepareSignals {
            try? await Task.sleep(for: .milliseconds(200))
            prepared.value.withLock { $0 = true }
            return nil
        }
        hub.apply(.success(try Self.spec(radius: 1)), source: "test")
        let (signal, toldSignal) = AsyncStream<Bool>.makeStream()
        let (bundle, toldBundle) = AsyncStream<Bool>.makeStream()
        _ = hub.subscribe { Wait(id: $0, waitsForSignal: true, prepared: prepared, told: toldSignal) }
        _ = hub.subscribe { Wait(id: $0, waitsForSignal: false, prepared: prepared, told: toldBundle) }
        hub.apply(.success(try Self.spec(radius: 2)), source: "test")
        var bundleWait = bundle.makeAsyncIterator()
        #expect(await bundleWait.next() == false, "a long-poll of the bundle is told at once")
        var signalWait = signal.makeAsyncIterator()
        #expect(await signalWait.next() == true, "the version signal names a version once it is prepared")
    }
}
