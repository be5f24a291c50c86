import Foundation

/// Runs one figure in a process of its own: this executable with `--only N`, its rows read back
/// from the JSON it writes.
///
/// A figure measured after others in one process inherits their heap: after figures 6 and 7
/// have made and freed 100,000 targets, figure 11's tokens read took 10–11 ms instead of
/// 5.8 ms (YAML's 4.2 ms instead of 3.9 ms), its allocations scattered over the freed heap.
/// Each figure in a fresh process measures what `--only N` measures, whatever ran before it.
enum FigureProcess {
    /// The rows and failures of `figures`, every entry of one figure number, run alone with the
    /// same sizes (`smoke`). The process is given that one number, so it runs them itself.
    static func run(_ figures: [Figure], smoke: Bool) -> (rows: [Row], failures: [String]) {
        guard let number = figures.first?.number, figures.allSatisfy({ $0.number == number }) else {
            return ([], ["figures of several numbers cannot share a process"])
        }
        let output = FileManager.default.temporaryDirectory
            .appendingPathComponent("livery-bench-\(getpid())-figure-\(number).json")
        defer { try? FileManager.default.removeItem(at: output) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        process.arguments = (smoke ? ["--smoke"] : []) + ["--only", number, "--json", output.path]
        // Its table is printed again with every other figure's; its progress goes on.
        process.standardOutput = FileHandle.nullDevice
        do {
            try process.run()
            process.waitUntilExit()
            let results = try JSONDecoder().decode(Results.self, from: Data(contentsOf: output))
            return (results.rows, results.failures)
        } catch {
            let failure = "figure \(number): its process (exit \(process.terminationStatus)) gave no results: \(error)"
            return (figures.map { Row.failed($0, failure) }, [failure])
        }
    }
}
