import Configuration
import Foundation
import Livery
import LiveryConfiguration
import LiveryServer
import LiveryTestSupport
import LiveryTesting
import Logging
import Testing

@testable import LiveryRemote

/// A provider following a real daemon records what it loaded, so its offline cache holds the
/// last spec it loaded, never one it refused.
@Suite(.timeLimit(.minutes(1)), .inotifyShared)
struct RemoteCacheTests {
    @Test func theOfflineCacheHoldsWhatTheProviderLoaded() async throws {
        let folder = try TemporarySpecFolder(prefix: "livery-config")
        let cacheFolder = try TemporarySpecFolder(prefix: "livery-config-cache")
        try folder.write("values.yaml", LiveValuesTests.values(timeout: "30"))
        let logger = Logger(label: "livery.configuration.test") { _ in SwiftLogNoOpLogHandler() }
        let daemon = LiveryDaemon(
            configuration: DaemonConfiguration(directory: folder.url, port: 0, heartbeatInterval: .milliseconds(300)),
            token: try BearerToken("test-token-0123456789abcdef"), logger: logger)
        let serving = GracefulServer.run(daemon, logger: logger)
        let url = try #require(URL(string: "http://127.0.0.1:\(try await daemon.listeningPort())"))
        let file = cacheFolder.url.appending(component: BundleCache.fileName)

        let provider = try await SpecConfigProvider(
            url: url, mode: .longPoll(wait: .seconds(5)),
            configuration: RemoteSpecSource.Configuration(cacheDirectory: cacheFolder.url))
        // Written off the caller's thread, once the first version is recorded as applied.
        try await eventually { FileManager.default.fileExists(atPath: file.path) }
        let first = try Data(contentsOf: file)
        let (service, watch, seen) = LiveValuesTests.follow(provider)
        try await eventually { seen.all == [30] }

        try folder.atomicSave("values.yaml", LiveValuesTests.values(timeout: "60"))
        try await eventually { seen.all == [30, 60] }
        // Recorded just after the load that the watcher saw.
        try await eventually { try Data(contentsOf: file) != first }
        let second = try Data(contentsOf: file)

        // The daemon serves it (no trait reads the variable); the provider refuses it.
        try folder.atomicSave(
            "values.yaml", LiveValuesTests.values(timeout: "45", accent: "\"~alpha(@colors.none, 0.5)\""))
        try await eventually { provider.lastError != nil }
        try await Task.sleep(for: .milliseconds(100))
        #expect(try Data(contentsOf: file) == second, "the refused spec did not replace the cache")
        watch.cancel()
        service.cancel()
        _ = await (watch.result, service.result)
        serving.cancel()
        _ = await serving.result
    }
}
