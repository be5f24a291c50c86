import Configuration
import Foundation
import Livery
import LiveryConfiguration
import LiveryConfigurationFolder
import LiveryRemote
import LiveryServer
import LiveryTestSupport
import LiveryTesting
import Logging
import Synchronization
import Testing

/// The provider following a real folder (inotify) and a real daemon on a loopback port: a value
/// read, a change seen through `watchInt`, a theme switch, a bad value keeping the last good.
@Suite(.timeLimit(.minutes(1)), .inotifyShared)
struct LiveValuesTests {
    static func values(timeout: String, accent: String = "\"#0A84FF\"") -> String {
        """
        variables:
          colors: { accent: \(accent) }
          http: { timeout: \(timeout) }
        themes:
          dark: { http: { timeout: 90 } }
        specs: {}
        """
    }

    /// Every value a `watchInt` handler saw, in order.
    final class Seen: Sendable {
        let values = Mutex<[Int?]>([])
        var all: [Int?] { values.withLock { $0 } }
    }

    /// Runs the provider as a service and watches `http.timeout` through a `ConfigReader`.
    static func follow(
        _ provider: SpecConfigProvider
    ) -> (service: Task<Void, any Error>, watch: Task<Void, any Error>, seen: Seen) {
        let seen = Seen()
        let config = ConfigReader(provider: provider)
        let service = Task { try await provider.run() }
        let watch = Task {
            try await config.watchInt(forKey: "http.timeout") { updates in
                for await value in updates { seen.values.withLock { $0.append(value) } }
            }
        }
        return (service, watch, seen)
    }

    @Test func followsAFolder() async throws {
        let folder = try TemporarySpecFolder(prefix: "livery-config")
        try folder.write("values.yaml", Self.values(timeout: "30"))
        let provider = try await SpecConfigProvider(directory: folder.url)
        #expect(ConfigReader(provider: provider).int(forKey: "http.timeout") == 30)
        let (service, watch, seen) = Self.follow(provider)
        try await eventually { seen.all == [30] }

        try folder.atomicSave("values.yaml", Self.values(timeout: "60"))
        try await eventually { seen.all == [30, 60] }

        try provider.setTheme("dark")
        try await eventually { seen.all == [30, 60, 90] }
        try provider.setTheme(nil)
        try await eventually { seen.all == [30, 60, 90, 60] }

        // A reference to no variable: a located error, and the last good values stay.
        try folder.atomicSave("values.yaml", Self.values(timeout: "\"@http.none\""))
        try await eventually { provider.lastError != nil }
        #expect("\(provider.lastError.map { "\($0)" } ?? "")".hasPrefix("values.yaml:3:"))
        #expect(ConfigReader(provider: provider).int(forKey: "http.timeout") == 60)
        // A file that does not parse is kept out the same way.
        try folder.atomicSave("values.yaml", "variables: { http: { timeout: 1 }\n")
        try await eventually { "\(provider.lastError.map { "\($0)" } ?? "")".contains("values.yaml:") }
        #expect(ConfigReader(provider: provider).int(forKey: "http.timeout") == 60)

        try folder.atomicSave("values.yaml", Self.values(timeout: "75"))
        try await eventually { seen.all.last == 75 }
        #expect(provider.lastError == nil)
        #expect(seen.all == [30, 60, 90, 60, 75])
        watch.cancel()
        service.cancel()
        _ = await (watch.result, service.result)
    }

    @Test func followsADaemon() async throws {
        let folder = try TemporarySpecFolder(prefix: "livery-config")
        try folder.write("values.yaml", Self.values(timeout: "30"))
        let logger = Logger(label: "livery.configuration.test") { _ in SwiftLogNoOpLogHandler() }
        let daemon = LiveryDaemon(
            configuration: DaemonConfiguration(directory: folder.url, port: 0, heartbeatInterval: .milliseconds(300)),
            token: try BearerToken("test-token-0123456789abcdef"), logger: logger)
        let serving = GracefulServer.run(daemon, logger: logger)
        let url = try #require(URL(string: "http://127.0.0.1:\(try await daemon.listeningPort())"))

        let provider = try await SpecConfigProvider(url: url, mode: .longPoll(wait: .seconds(5)))
        #expect(ConfigReader(provider: provider).int(forKey: "http.timeout") == 30)
        let (service, watch, seen) = Self.follow(provider)
        try await eventually { seen.all == [30] }

        try folder.atomicSave("values.yaml", Self.values(timeout: "60"))
        try await eventually { seen.all == [30, 60] }
        try provider.setTheme("dark")
        try await eventually { seen.all == [30, 60, 90] }

        // The daemon serves it (no trait reads the variable), the provider keeps it out.
        try folder.atomicSave("values.yaml", Self.values(timeout: "60", accent: "\"~alpha(@colors.none, 0.5)\""))
        try await eventually { provider.lastError != nil }
        #expect("\(provider.lastError.map { "\($0)" } ?? "")".contains("colors.none"))
        #expect(ConfigReader(provider: provider).int(forKey: "http.timeout") == 90)
        #expect(ConfigReader(provider: provider).string(forKey: "colors.accent") == "#0A84FF")

        // With the service stopped, fetchValue still asks the daemon.
        watch.cancel()
        service.cancel()
        _ = await (watch.result, service.result)
        try provider.setTheme(nil)
        try folder.atomicSave("values.yaml", Self.values(timeout: "15"))
        try await eventually {
            // Until the daemon has read the edit, a fetch gets the bad spec again and throws.
            do {
                return try await ConfigReader(provider: provider).fetchInt(forKey: "http.timeout") == 15
            } catch {
                return false
            }
        }
        serving.cancel()
        _ = await serving.result
    }
}

extension LiveValuesTests {
    @Test func startingWithoutADaemonOrWithABadFolderThrows() async throws {
        let folder = try TemporarySpecFolder(prefix: "livery-config")
        try folder.write("values.yaml", Self.values(timeout: "30"))
        // A daemon that has stopped: nothing listens on its port any more.
        let logger = Logger(label: "livery.configuration.test") { _ in SwiftLogNoOpLogHandler() }
        let daemon = LiveryDaemon(
            configuration: DaemonConfiguration(directory: folder.url, port: 0),
            token: try BearerToken("test-token-0123456789abcdef"), logger: logger)
        let serving = GracefulServer.run(daemon, logger: logger)
        let port = try await daemon.listeningPort()
        serving.cancel()
        _ = await serving.result
        let closed = try #require(URL(string: "http://127.0.0.1:\(port)"))
        await #expect(throws: RemoteError.self) { try await SpecConfigProvider(url: closed) }

        try folder.atomicSave("values.yaml", Self.values(timeout: "\"@http.none\""))
        let error = try await #require(throws: SpecError.self) { try await SpecConfigProvider(directory: folder.url) }
        #expect(error.description.hasPrefix("values.yaml:3:"))
    }
}

/// Waits until `condition` holds, or records an issue after 10 s.
func eventually(
    sourceLocation: Testing.SourceLocation = #_sourceLocation, _ condition: () async throws -> Bool
) async throws {
    let clock = ContinuousClock()
    let deadline = clock.now + .seconds(10)
    while clock.now < deadline {
        if try await condition() { return }
        try await Task.sleep(for: .milliseconds(20))
    }
    Issue.record("condition not met in 10 s", sourceLocation: sourceLocation)
}
