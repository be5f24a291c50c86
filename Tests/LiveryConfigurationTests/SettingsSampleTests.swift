import Configuration
import Foundation
import LiveryConfiguration
import LiveryConfigurationFolder
import LiveryTestSupport
import LiveryTesting
import Logging
import ServiceLifecycle
import Synchronization
import Testing
import UnixSignals

/// The "Settings for server programs" guide's sample (LiveryConfiguration's catalogue), compiled and run on a real
/// folder; Tests/Docs/check_docs.py checks that the guide shows it word for word.
@Suite(.timeLimit(.minutes(1)), .inotifyShared)
struct SettingsSampleTests {
    /// The sample, word for word between the markers.
    static func snippet(
        specs: URL, logger: Logger, onTimeout: @escaping @Sendable (Int) -> Void
    ) async throws -> (SpecConfigProvider, [String], Task<Void, any Error>, ServiceGroup) {
        // sample: Sources/LiveryConfiguration/LiveryConfiguration.docc/SettingsForServerPrograms.md
        let settings = try await SpecConfigProvider(directory: specs, logger: logger)  // or url: daemon
        let config = ConfigReader(provider: settings)
        let hosts = config.stringArray(forKey: "http.hosts", default: [])
        let watching = Task {
            try await config.watchInt(forKey: "http.timeout", default: 30) { updates in
                for await timeout in updates { onTimeout(timeout) }
            }
        }
        // A Service: it follows the folder (inotify) or the daemon until shutdown.
        let group = ServiceGroup(services: [settings], gracefulShutdownSignals: [.sigterm], logger: logger)
        // sample end
        return (settings, hosts, watching, group)
    }

    @Test func theSnippetReadsAndWatches() async throws {
        let folder = try TemporarySpecFolder(prefix: "livery-readme")
        try folder.write(
            "values.yaml",
            """
            variables:
              http: { timeout: 30, hosts: [a.example, b.example] }
            themes:
              incident: { http: { timeout: 5 } }
            specs: {}
            """)
        let timeouts = TimeoutLog()
        let logger = Logger(label: "readme") { _ in SwiftLogNoOpLogHandler() }
        let (settings, hosts, watching, _) = try await Self.snippet(specs: folder.url, logger: logger) {
            timeouts.append($0)
        }
        #expect(hosts == ["a.example", "b.example"])
        try await eventually { timeouts.all == [30] }
        try settings.setTheme("incident")
        try await eventually { timeouts.all == [30, 5] }
        watching.cancel()
        _ = await watching.result
    }
}

/// The timeouts a watcher saw, in order.
final class TimeoutLog: Sendable {
    private let values = Mutex<[Int]>([])
    func append(_ value: Int) { values.withLock { $0.append(value) } }
    var all: [Int] { values.withLock { $0 } }
}
