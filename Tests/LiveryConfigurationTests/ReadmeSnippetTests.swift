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

/// The README's "Settings for server programs" snippet, compiled and run on a real folder.
@Suite(.timeLimit(.minutes(1)), .inotifyShared)
struct ReadmeSnippetTests {
    /// The snippet, word for word between the markers.
    static func snippet(
        specs: URL, logger: Logger, onTimeout: @escaping @Sendable (Int) -> Void
    ) async throws -> (SpecConfigProvider, [String], Task<Void, any Error>, ServiceGroup) {
        // README begin
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
        // README end
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

    @Test func theReadmeHoldsTheSnippet() throws {
        let root = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let readme = try String(contentsOf: root.appending(path: "README.md"), encoding: .utf8)
        let source = try String(contentsOf: URL(filePath: #filePath), encoding: .utf8)
        let lines = source.split(separator: "\n", omittingEmptySubsequences: false)
        let begin = try #require(lines.firstIndex { $0.hasSuffix("// README begin") })
        let end = try #require(lines.firstIndex { $0.hasSuffix("// README end") })
        let snippet = lines[(begin + 1)..<end].map { $0.dropFirst(8) }.joined(separator: "\n")
        #expect(readme.contains(snippet))
    }
}

/// The timeouts a watcher saw, in order.
final class TimeoutLog: Sendable {
    private let values = Mutex<[Int]>([])
    func append(_ value: Int) { values.withLock { $0.append(value) } }
    var all: [Int] { values.withLock { $0 } }
}
