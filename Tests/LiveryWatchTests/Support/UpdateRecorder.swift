import Foundation
import Logging
import Synchronization
import Testing

@testable import LiveryWatch

/// Consumes a watcher's updates in a task and lets a test wait for them.
final class UpdateRecorder: Sendable {
    typealias Content = TestLoader.Content

    let watcher: FolderWatcher<Content>
    private let updates: UpdateBox
    private let consumer: Task<Void, Never>

    private final class UpdateBox: Sendable {
        let list = Mutex<[Update<Content>]>([])
    }

    init(_ watcher: FolderWatcher<Content>) {
        let updates = UpdateBox()
        self.watcher = watcher
        self.updates = updates
        self.consumer = Task {
            for await update in watcher {
                updates.list.withLock { $0.append(update) }
            }
        }
    }

    /// Watches `folder` with the test loader.
    convenience init(watching folder: TemporaryFolder, configuration: WatchConfiguration = WatchConfiguration()) {
        self.init(
            FolderWatcher(
                directory: folder.url, configuration: configuration, logger: testLogger, loader: TestLoader.load)
        )
    }

    var all: [Update<Content>] { updates.list.withLock { $0 } }
    var count: Int { all.count }
    var failures: [any Error] { all.compactMap(\.error) }
    var latestValue: Content? { all.last(where: { $0.value != nil })?.value }

    /// Waits until `count` updates arrived.
    @discardableResult
    func waitForCount(_ count: Int, timeout: Duration = .seconds(5)) async throws -> [Update<Content>] {
        try await eventually("\(count) updates (have \(self.count): \(describe()))", timeout: timeout) {
            self.count >= count
        }
        return all
    }

    /// Waits until the latest update is a loaded value equal to `expected`.
    func waitForValue(_ expected: Content, timeout: Duration = .seconds(5)) async throws {
        try await eventually("value \(expected) (have \(describe()))", timeout: timeout) {
            self.all.last?.value == expected
        }
    }

    /// Waits until the latest update is a failure, and returns it.
    @discardableResult
    func waitForFailure(timeout: Duration = .seconds(5)) async throws -> any Error {
        try await eventually("a failure (have \(describe()))", timeout: timeout) { self.all.last?.error != nil }
        return try #require(all.last?.error)
    }

    /// Waits until the watcher finished a scan after `scans` (the counter moves once a scan's
    /// outcome is decided, before its update is yielded), so a change just made has been looked
    /// at, without a fixed sleep.
    func waitForScan(after scans: Int, timeout: Duration = .seconds(5)) async throws {
        try await eventually("a scan after \(scans)", timeout: timeout) { self.watcher.statistics.scans > scans }
    }

    func describe() -> String {
        let owner = InotifyOwner.shared.state.withLock {
            "owner \($0.phase), \($0.queue.count) queued, \($0.threadsStarted) threads started"
        }
        return "\(watcher.statistics); \(owner); "
            + all.map { update in
                switch update {
                case .loaded(let value, _): "loaded(\(value.keys.sorted()))"
                case .failed(let error): "failed(\(error))"
                }
            }.joined(separator: ", ")
    }

    /// Stops consuming (the watcher stops too: its stream's consumer went away).
    func cancel() { consumer.cancel() }

    /// Waits for the consuming task to end.
    func finished() async { await consumer.value }
}

/// Polls `condition` every millisecond until it holds, failing after `timeout`.
func eventually(
    _ what: @autoclosure () -> String,
    timeout: Duration = .seconds(5),
    _ condition: () async throws -> Bool
) async throws {
    let deadline = ContinuousClock.now + timeout
    while try await !condition() {
        guard ContinuousClock.now < deadline else { throw TestFailure("timed out waiting for \(what())") }
        try await Task.sleep(for: .milliseconds(1))
    }
}

/// The number of threads of this process.
func threadCount() throws -> Int {
    try FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").count
}

extension UpdateRecorder {
    /// Stops the watcher and waits for the consumer to see the end of the updates.
    func stop() async {
        await watcher.stop()
        await consumer.value
    }
}

/// Runs `body` against a fresh folder holding `files`, watched from the start; waits for the
/// initial value first and always stops the watcher afterwards, even when the test fails.
func withWatchedFolder(
    _ files: [String: String] = ["card.yaml": "card: 1\n"],
    configuration: WatchConfiguration = WatchConfiguration(),
    _ body: (TemporaryFolder, UpdateRecorder) async throws -> Void
) async throws {
    let folder = try TemporaryFolder()
    for (path, content) in files {
        if path.contains("/") {
            try FileManager.default.createDirectory(
                atPath: folder.at(String(path[..<path.lastIndex(of: "/")!])), withIntermediateDirectories: true)
        }
        try folder.write(path, content)
    }
    let recorder = UpdateRecorder(watching: folder, configuration: configuration)
    do {
        try await recorder.waitForValue(TestLoader.load(folder.url))
        try await body(folder, recorder)
    } catch {
        await recorder.stop()
        throw error
    }
    await recorder.stop()
}

/// A number from /proc, such as `/proc/sys/fs/inotify/max_queued_events`.
func procValue(_ path: String) throws -> String {
    try String(contentsOfFile: path, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
}

/// Set LIVERY_WATCH_TEST_LOG=trace (or another level) to see what the watchers do.
let testLogger: Logger = {
    guard let level = ProcessInfo.processInfo.environment["LIVERY_WATCH_TEST_LOG"].flatMap(Logger.Level.init(rawValue:))
    else { return Logger(label: "livery.watch.tests") { _ in SwiftLogNoOpLogHandler() } }
    var logger = Logger(label: "livery.watch.tests")
    logger.logLevel = level
    return logger
}()
