import Foundation
import Livery
import LiveryTestSupport
import LiveryTesting
import Testing

@testable import LiveryRemote

/// The offline cache: real files in a temporary folder, real daemons, and a closed port for
/// "no network".
@Suite(.timeLimit(.minutes(1)), .inotifyShared)
struct OfflineStartTests {
    private static func configuration(cache: URL) -> RemoteSpecSource.Configuration {
        RemoteSpecSource.Configuration(
            connectTimeout: .milliseconds(500), backoff: Backoff(base: .milliseconds(50), cap: .milliseconds(300)),
            cacheDirectory: cache)
    }

    private static func yaml(radius: Int) -> String {
        "specs:\n  box:\n    - { type: CornerRadius, radius: \(radius) }\n"
    }

    private static var offline: URL {
        get throws { URL(string: "http://127.0.0.1:\(try FreePort.closed())")! }
    }

    /// Follows `daemon` with a cache in `cache`, applying what comes, until the first spec is
    /// kept there; its version.
    private static func fillCache(_ cache: URL, from daemon: RunningDaemon) async throws -> RemoteVersion {
        let client = UpdateCollector(
            RemoteSpecSource(
                url: daemon.url, mode: .longPoll(wait: .seconds(1)), configuration: configuration(cache: cache)),
            recordingApplied: true)
        try await client.waitForLoaded(1)
        let file = cache.appending(component: BundleCache.fileName)
        try await eventually { FileManager.default.fileExists(atPath: file.path) }
        let mode = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int
        #expect(mode == 0o600, "the cached bundle may hold private settings: readable by its user only")
        await client.cancel()
        return try #require(client.updates.compactMap(\.version).first)
    }

    @Test("a cached bundle is applied before the network answers, and its ETag makes the first request a 304")
    @MainActor func startsFromTheCache() async throws {
        let specs = try TemporarySpecFolder(prefix: "livery-offline")
        let cache = try TemporarySpecFolder(prefix: "livery-cache")
        try specs.write("box.yaml", Self.yaml(radius: 5))
        let daemon = try await RunningDaemon.start(folder: specs)
        let cached = try await Self.fillCache(cache.url, from: daemon)
        let names = try FileManager.default.contentsOfDirectory(atPath: cache.url.path)
        #expect(names == [BundleCache.fileName], "no temporary file is left behind")

        // No network at all: the provider is styled from the cache alone.
        let provider = TraitsProvider()
        let box = StyledBox()
        provider.register(box, as: "box")
        let nowhere = try Self.offline
        let offline = Task {
            await provider.follow(url: nowhere, configuration: Self.configuration(cache: cache.url))
        }
        try await eventually { box.cornerRadius == 5 }
        offline.cancel()
        await offline.value

        // The network again: the cached ETag goes first, so the unchanged bundle is a 304.
        let before = daemon.bundleRequests(status: 304)
        let client = UpdateCollector(
            RemoteSpecSource(
                url: daemon.url, mode: .longPoll(wait: .seconds(1)), configuration: Self.configuration(cache: cache.url)
            ))
        try await eventually { daemon.bundleRequests(status: 304) >= before + 2 }
        await client.cancel()
        await daemon.stop()
        #expect(daemon.bundleRequests(status: 200) == 1, "only the first client downloaded the bundle")
        #expect(client.loaded.count == 1)
        #expect(client.updates.first?.version?.etag == cached.etag)
        #expect(client.updates.first?.version?.endpoint == nil)
        #expect(client.failures.isEmpty)
    }

    /// Ways a cache file goes bad, and the error each one is.
    enum Damage: String, CaseIterable, Sendable {
        case truncatedBody, flippedByte, cutHeader, empty, wrongFirstLine, notASpec

        func apply(to good: Data, file: String) -> (damaged: Data, expected: String) {
            var bytes = [UInt8](good)
            switch self {
            case .truncatedBody:
                let body = bytes.count - (good.firstRange(of: Data("\n\n".utf8))?.upperBound ?? 0)
                return (
                    Data(bytes.dropLast(10)),
                    "\(file): error: the body has \(body - 10) of the \(body) bytes the header announces"
                )
            case .flippedByte:
                bytes[bytes.count - 5] ^= 0x01
                return (Data(bytes), "\(file): error: the body does not match the length and digest the header gives")
            case .cutHeader:
                return (Data(bytes.prefix(30)), "\(file):1: error: the header does not end with a blank line")
            case .empty:
                return (Data(), "\(file):1: error: the header does not end with a blank line")
            case .wrongFirstLine:
                return (
                    Data("livery-bundle-cache 9".utf8) + good.dropFirst(21),
                    "\(file):1: error: expected 'livery-bundle-cache 1'"
                )
            case .notASpec:
                let entry = BundleCache.Entry(body: Data(#"{"specs": 1}"#.utf8), etag: "\"x\"", format: .json)
                return (BundleCache.encode(entry), "\(file):1:11: error: ")
            }
        }
    }

    @Test(
        "a truncated or corrupt cache is reported with its place, never applied, and replaced",
        arguments: Damage.allCases)
    func refusesADamagedCache(damage: Damage) async throws {
        let specs = try TemporarySpecFolder(prefix: "livery-offline")
        let cache = try TemporarySpecFolder(prefix: "livery-cache")
        try specs.write("box.yaml", Self.yaml(radius: 7))
        let daemon = try await RunningDaemon.start(folder: specs)
        _ = try await Self.fillCache(cache.url, from: daemon)
        let file = cache.url.appending(component: BundleCache.fileName)
        let (damaged, expected) = damage.apply(to: try Data(contentsOf: file), file: file.path)
        try damaged.write(to: file)

        let client = UpdateCollector(
            RemoteSpecSource(
                url: daemon.url, mode: .longPoll(wait: .seconds(1)), configuration: Self.configuration(cache: cache.url)
            ), recordingApplied: true)
        try await client.waitForLoaded(1)
        await client.cancel()
        await daemon.stop()
        let first = try #require(client.updates.first?.error)
        #expect("\(first)".hasPrefix(expected))
        #expect(client.loaded.map(radius) == [7], "only the network's spec is published")
        #expect(client.updates.compactMap(\.version).first?.endpoint == daemon.url)
        #expect(daemon.bundleRequests(status: 200) == 2, "the damaged file's ETag was not sent")
        // The keeper writes the file on its own queue once the version is recorded as applied;
        // until then the damaged file is there, and reading it fails.
        let applied = client.updates.compactMap(\.version).first?.etag
        try await eventually {
            guard let cached = try? BundleCache(folder: cache.url, maxBytes: 1 << 20).load() else { return false }
            return cached.etag == applied
        }
        let repaired = try BundleCache(folder: cache.url, maxBytes: 1 << 20).load()
        #expect(repaired?.etag == applied, "the good spec replaced the file")
    }

    @Test("a cache that cannot be written is reported, and the spec stays loaded")
    func reportsAnUnwritableCache() async throws {
        let specs = try TemporarySpecFolder(prefix: "livery-offline")
        try specs.write("box.yaml", Self.yaml(radius: 3))
        let other = try TemporarySpecFolder(prefix: "livery-cache")
        try other.write("not-a-folder", "")  // the cache folder would have to be below a file
        let daemon = try await RunningDaemon.start(folder: specs)
        let client = UpdateCollector(
            RemoteSpecSource(
                url: daemon.url, mode: .longPoll(wait: .seconds(1)),
                configuration: Self.configuration(cache: other.url("not-a-folder/cache"))), recordingApplied: true)
        try await client.wait { $0.count >= 2 }
        await client.cancel()
        await daemon.stop()
        #expect(client.loaded.map(radius) == [3])
        let error = try #require(client.updates.last?.error as? BundleCacheError)
        #expect(error.code == .unwritable)
    }
}

/// The offline cache holds what the provider applied, not merely what parsed.
@Suite(.timeLimit(.minutes(1)), .inotifyShared)
struct OfflineCacheAppliedTests {
    @Test("a bundle that parses but the provider refuses never replaces the cache; a restart applies the last applied")
    @MainActor func keepsTheLastAppliedBundle() async throws {
        final class Plain {}  // no capability: a CornerRadius for it fails to apply
        let specs = try TemporarySpecFolder(prefix: "livery-offline")
        let cacheFolder = try TemporarySpecFolder(prefix: "livery-cache")
        try specs.write("box.yaml", "specs:\n  box:\n    - { type: CornerRadius, radius: 5 }\n")
        let daemon = try await RunningDaemon.start(folder: specs)
        let configuration = RemoteSpecSource.Configuration(
            connectTimeout: .milliseconds(500), backoff: Backoff(base: .milliseconds(50), cap: .milliseconds(300)),
            cacheDirectory: cacheFolder.url)
        let cache = BundleCache(folder: cacheFolder.url, maxBytes: configuration.limits.maxBytes)
        let provider = TraitsProvider()
        let box = StyledBox()
        let plain = Plain()
        provider.register(box, as: "box")
        provider.register(plain, as: "plain")
        var refusals = 0
        let follow = Task {
            await provider.follow(url: daemon.url, mode: .longPoll(wait: .seconds(1)), configuration: configuration) {
                if case .failure = $0 { refusals += 1 }
            }
        }
        try await eventually { box.cornerRadius == 5 }
        try await eventually { FileManager.default.fileExists(atPath: cache.file.path) }
        let applied = try #require(try cache.load())

        try specs.atomicSave(
            "box.yaml",
            "specs:\n  box:\n    - { type: CornerRadius, radius: 6 }\n  plain:\n    - { type: CornerRadius, radius: 1 }\n"
        )
        try await eventually { refusals == 1 }
        try await Task.sleep(for: .milliseconds(200))
        follow.cancel()
        await follow.value
        await daemon.stop()
        #expect(box.cornerRadius == 5)
        #expect(try cache.load() == applied, "the refused bundle did not replace the applied one")

        // No network: a new provider starts from the cache, with the bundle applied last.
        let restarted = TraitsProvider()
        let again = StyledBox()
        restarted.register(again, as: "box")
        let offline = URL(string: "http://127.0.0.1:\(try FreePort.closed())")!
        let start = Task { await restarted.follow(url: offline, configuration: configuration) }
        try await eventually { again.cornerRadius == 5 }
        start.cancel()
        await start.value
    }
}
