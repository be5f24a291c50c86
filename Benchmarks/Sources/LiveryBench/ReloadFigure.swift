import Dispatch
import Foundation
import Livery
import LiveryWatch
import Synchronization

/// Figure 1: the `rename()` of an editor's atomic save → the new traits applied on 1,000
/// registered targets, beside `inotifywait`'s detection of the very same rename, in the same run.
///
/// Both watch one folder. For each save the harness writes a hidden temporary file, reads the
/// clock, and renames it over `card.yaml`. Livery's time ends when `provider.follow(directory:)`
/// has loaded the new spec and restyled every target; `inotifywait`'s when this process reads the
/// line it prints for the rename (so the baseline includes a pipe hop Livery does not have).
/// Saves are 40 ms apart, beyond the settle window, so each is a single change.
enum ReloadFigure {
    static let figure = Figure(number: "1", title: "Local reload") { config in
        try run(config, traits: "2 traits", gapTarget: 2, spec: spec(step:))
            + run(config, traits: "the demo card's mix", gapTarget: 1, spec: demoSpec(step:))
    }

    /// Times saves of `spec(step)` for steps 1, 2, …; the median gap to inotifywait is judged
    /// against `gapTarget` milliseconds.
    static func run(_ config: BenchConfig, traits: String, gapTarget: Double, spec: (Int) -> Data) throws -> [Row] {
        let saves = config.smoke ? 15 : 200
        let targetCount = 1_000
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("livery-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }  // best effort: a temp folder
        try spec(0).write(to: folder.appendingPathComponent("card.yaml"))

        let inotify = try InotifywaitProbe(folder: folder)
        defer { inotify.stop() }

        let applied = AppliedLog()
        let styler = CardStyler(targets: targetCount)
        let following = Task { await styler.follow(folder, log: applied) }
        defer { following.cancel() }
        guard applied.wait(for: 1, timeout: .seconds(10)) else { throw BenchError("the first spec was never applied") }

        var renamedAt: [ContinuousClock.Instant] = []
        for step in 1...saves {
            let temporary = folder.appendingPathComponent(".card.yaml.tmp")
            try spec(step).write(to: temporary)
            let now = ContinuousClock.now
            guard rename(temporary.path, folder.appendingPathComponent("card.yaml").path) == 0 else {
                throw BenchError("rename failed: errno \(errno)")
            }
            renamedAt.append(now)
            guard applied.wait(for: step + 1, timeout: .seconds(5)) else {
                throw BenchError("save \(step) was never applied")
            }
            guard inotify.wait(for: step, timeout: .seconds(5)) else {
                throw BenchError("inotifywait missed save \(step)")
            }
            Thread.sleep(forTimeInterval: 0.04)
        }
        let touched = applied.targetsTouched
        guard touched.allSatisfy({ $0 == targetCount }) else {
            throw BenchError("a reload restyled \(touched.filter { $0 != targetCount }) targets, not \(targetCount)")
        }

        let livery = Samples(nanoseconds: zip(renamedAt, applied.times.dropFirst()).map { ($1 - $0).nanoseconds })
        let baseline = Samples(nanoseconds: zip(renamedAt, inotify.times).map { ($1 - $0).nanoseconds })
        let gap = (livery.median - baseline.median) / 1e6
        let p99 = livery.p99 / 1e6
        let size = config.smoke ? "\(saves) saves (smoke; issue: 200)" : "\(saves) saves"
        return [
            Row(
                figure: "1", metric: "atomic save → \(traits) applied on 1,000 targets, \(size)", unit: "ms",
                value: livery.median / 1e6, p99: p99, baseline: "inotifywait -m -e moved_to, same renames",
                baselineValue: baseline.median / 1e6, ratio: livery.median / baseline.median, cpuRatio: nil,
                target: "median ≤ baseline + \(Format.number(gapTarget)) ms, p99 ≤ 10 ms",
                verdict: gap <= gapTarget && p99 <= 10 ? .pass : .miss,
                notes: "baseline p99 \(Format.number(baseline.p99 / 1e6)) ms"),
            Row(
                figure: "1", metric: "median gap to inotifywait, \(traits)", unit: "ms", value: gap, p99: nil,
                baseline: "inotifywait median", baselineValue: baseline.median / 1e6, ratio: nil, cpuRatio: nil,
                target: "≤ \(Format.number(gapTarget)) ms", verdict: gap <= gapTarget ? .pass : .miss),
        ]
    }

    /// The demo card's mix (Font, DropShadow, Border, TextColor, BackgroundColor), every value
    /// changed at each step.
    static func demoSpec(step: Int) -> Data {
        let values = DemoCardMix.values(index: step, variant: step & 1)
        return Data(("specs:\n  card: " + DemoCardMix.specJSON(values) + "\n").utf8)
    }

    static func spec(step: Int) -> Data {
        let blue = String(step % 256, radix: 16)
        let colour = "#0000" + (blue.count == 1 ? "0" + blue : blue)
        return Data(
            "specs:\n  card:\n    - { type: BackgroundColor, color: \"\(colour)\" }\n    - { type: CornerRadius, radius: \(step % 50) }\n"
                .utf8)
    }
}

/// `inotifywait -m` on the same folder; the time this process reads each of its lines.
///
/// Launched with Foundation's `Process`, unlike every other child of the tests and benchmarks
/// (`ChildProcess`): its lines are timed as a thread of its own reads them, and the baseline is a
/// fraction of a millisecond, which the task hops of an asynchronous read would lengthen. The
/// benchmarks launch one process at a time, from their own thread.
private final class InotifywaitProbe: Sendable {
    /// Shared with the reading thread: a class, because a `Mutex` cannot be copied into it.
    private final class Lines: Sendable {
        let times = Mutex<[ContinuousClock.Instant]>([])
    }

    private let process: Process
    private let lines = Lines()

    init(folder: URL) throws {
        let process = Process()
        process.executableURL = URL(filePath: "/usr/bin/inotifywait")
        process.arguments = ["-m", "-e", "moved_to", "--format", "%f", folder.path]
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        self.process = process
        // inotifywait says "Watches established." on stderr once it is listening.
        var said = Data()
        while !String(decoding: said, as: UTF8.self).contains("Watches established") {
            let chunk = errors.fileHandleForReading.availableData
            guard !chunk.isEmpty else {
                throw BenchError("inotifywait exited: \(String(decoding: said, as: UTF8.self))")
            }
            said.append(chunk)
        }
        let handle = output.fileHandleForReading
        let lines = self.lines
        Thread.detachNewThread {
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { return }
                let now = ContinuousClock.now
                let count = chunk.reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
                lines.times.withLock { $0 += Array(repeating: now, count: count) }
            }
        }
    }

    var times: [ContinuousClock.Instant] { lines.times.withLock { $0 } }

    func wait(for count: Int, timeout: Duration) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while lines.times.withLock({ $0.count }) < count {
            guard ContinuousClock.now < deadline else { return false }
            Thread.sleep(forTimeInterval: 0.0005)
        }
        return true
    }

    func stop() {
        process.terminate()
        process.waitUntilExit()
    }
}
