import Foundation

/// `LiveryBench --reloads MIX COUNT`: figure 1's reload without its baseline: a folder followed
/// by `provider.follow(directory:)` with 1,000 targets, spec `MIX` (`two`: the two-trait card;
/// `demo`: the demo card's mix) saved COUNT times by an editor's atomic rename, each save
/// waited for until its load report arrives, and nothing else. Benchmarks/callgrind-reload.sh
/// runs it under callgrind with two counts: the difference is the instructions of the reloads
/// alone, the watcher's settled scan after each save included. (`inotifywait` is left out: a
/// child process cannot be started under valgrind.)
enum ReloadRun {
    static let mixes = ["two", "demo"]

    static func run(mix: String, count: Int) throws {
        let spec: (Int) -> Data
        switch mix {
        case "two": spec = ReloadFigure.spec(step:)
        case "demo": spec = ReloadFigure.demoSpec(step:)
        default: throw BenchError("mix '\(mix)': expected one of \(mixes.joined(separator: ", "))")
        }
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("livery-reloads-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }  // best effort: a temp folder
        let card = folder.appendingPathComponent("card.yaml")
        let temporary = folder.appendingPathComponent(".card.yaml.tmp")
        try spec(0).write(to: card)

        let applied = AppliedLog()
        let styler = CardStyler(targets: 1_000)
        let following = Task { await styler.follow(folder, log: applied) }
        defer { following.cancel() }
        // Generous: under valgrind a reload takes fifty times as long.
        guard applied.wait(for: 1, timeout: .seconds(60)) else { throw BenchError("the first spec was never applied") }
        for step in stride(from: 1, through: count, by: 1) {
            try spec(step).write(to: temporary)
            guard rename(temporary.path, card.path) == 0 else { throw BenchError("rename failed: errno \(errno)") }
            guard applied.wait(for: step + 1, timeout: .seconds(60)) else {
                throw BenchError("save \(step) was never applied: \(applied.firstFailure ?? "no error")")
            }
            // Past the settle window, so the settled scan after each save is counted too.
            Thread.sleep(forTimeInterval: 0.04)
        }
        guard applied.failures == 0 else { throw BenchError("a reload failed: \(applied.firstFailure ?? "")") }
    }
}
