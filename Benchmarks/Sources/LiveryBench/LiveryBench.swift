import Foundation

/// `LiveryBench [--smoke] [--json PATH] [--markdown PATH] [--only 4,5]`: runs the figures of
/// issue 6, prints a table and writes the results as JSON. `LiveryBench --serve SECONDS`
/// only serves figure 3's bundle, for a profiler (``ProfiledDaemon``); `LiveryBench --switches
/// MIX SIDE COUNT` only makes figure 4's switches, for callgrind (``SwitchRun``); `LiveryBench
/// --stylesheets SIDE COUNT` only renders figure 10's stylesheet, for callgrind (``StyleSheetRun``);
/// `LiveryBench --tokens SIDE COUNT` only reads figure 11's documents, for callgrind (``TokensRun``);
/// `LiveryBench --parses SIDE COUNT` only reads figure 5's documents, for callgrind (``ParseRun``);
/// `LiveryBench --reloads MIX COUNT` only makes figure 1's saves, for callgrind (``ReloadRun``).
@main
struct LiveryBench {
    static func main() {
        var arguments = Array(CommandLine.arguments.dropFirst())
        var config = BenchConfig.full
        var jsonPath = "bench-results.json"
        var markdownPath: String?
        var only: Set<String>?
        while !arguments.isEmpty {
            let argument = arguments.removeFirst()
            switch argument {
            case "--smoke": config = .smoke
            case "--json" where !arguments.isEmpty: jsonPath = arguments.removeFirst()
            case "--markdown" where !arguments.isEmpty: markdownPath = arguments.removeFirst()
            case "--serve" where arguments.count == 1 && Int(arguments[0]) != nil:
                do {
                    try ProfiledDaemon.serve(seconds: Int(arguments[0]) ?? 0)
                    exit(0)
                } catch {
                    FileHandle.standardError.write(Data("could not serve: \(error)\n".utf8))
                    exit(1)
                }
            case "--switches" where arguments.count == 3 && Int(arguments[2]) != nil:
                do {
                    try SwitchRun.run(mix: arguments[0], side: arguments[1], count: Int(arguments[2]) ?? 0)
                    exit(0)
                } catch {
                    FileHandle.standardError.write(Data("could not switch: \(error)\n".utf8))
                    exit(1)
                }
            case "--stylesheets" where arguments.count == 2 && Int(arguments[1]) != nil:
                do {
                    try StyleSheetRun.run(side: arguments[0], count: Int(arguments[1]) ?? 0)
                    exit(0)
                } catch {
                    FileHandle.standardError.write(Data("could not render: \(error)\n".utf8))
                    exit(1)
                }
            case "--tokens" where arguments.count == 2 && Int(arguments[1]) != nil:
                do {
                    try TokensRun.run(side: arguments[0], count: Int(arguments[1]) ?? 0)
                    exit(0)
                } catch {
                    FileHandle.standardError.write(Data("could not read: \(error)\n".utf8))
                    exit(1)
                }
            case "--parses" where arguments.count == 2 && Int(arguments[1]) != nil:
                do {
                    try ParseRun.run(side: arguments[0], count: Int(arguments[1]) ?? 0)
                    exit(0)
                } catch {
                    FileHandle.standardError.write(Data("could not parse: \(error)\n".utf8))
                    exit(1)
                }
            case "--reloads" where arguments.count == 2 && Int(arguments[1]) != nil:
                do {
                    try ReloadRun.run(mix: arguments[0], count: Int(arguments[1]) ?? 0)
                    exit(0)
                } catch {
                    FileHandle.standardError.write(Data("could not reload: \(error)\n".utf8))
                    exit(1)
                }
            case "--only" where !arguments.isEmpty:
                only = Set(arguments.removeFirst().split(separator: ",").map(String.init))
            default:
                FileHandle.standardError.write(
                    Data(
                        ("usage: LiveryBench [--smoke] [--json PATH] [--markdown PATH] [--only 4,5,…] | --serve SECONDS"
                            + " | --switches MIX engine|hand|assign COUNT | --stylesheets css|json COUNT"
                            + " | --tokens tokens|yaml COUNT | --parses json|foundation|yaml COUNT"
                            + " | --reloads two|demo COUNT\n").utf8))
                exit(2)
            }
        }

        #if DEBUG
        let configuration = "debug"
        #else
        let configuration = "release"
        #endif
        // Smoke sizes or a debug build prove that the harness runs; their numbers measure nothing
        // the targets speak of, so no row of such a run passes or misses.
        let judged = !config.smoke && configuration == "release"
        let clock = ContinuousClock()
        let start = clock.now
        var rows: [Row] = []
        var failures: [String] = []
        let selected = Figures.all.filter { only?.contains($0.number) ?? true }
        var numbers: [String] = []
        for figure in selected where !numbers.contains(figure.number) { numbers.append(figure.number) }
        if numbers.count > 1 {
            // Each figure number in a process of its own, given that one number: see FigureProcess.
            for number in numbers {
                let (measured, failed) = FigureProcess.run(selected.filter { $0.number == number }, smoke: config.smoke)
                rows += measured
                failures += failed
            }
        } else {
            for figure in selected {
                FileHandle.standardError.write(Data("figure \(figure.number): \(figure.title)…\n".utf8))
                let figureStart = clock.now
                do {
                    let measured = try figure.run(config)
                    rows += judged ? measured : measured.map(\.unjudged)
                } catch {
                    failures.append("figure \(figure.number): \(error)")
                    rows.append(Row.failed(figure, "\(error)"))
                }
                FileHandle.standardError.write(Data("  \(clock.now - figureStart)\n".utf8))
            }
        }
        let elapsed = clock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18

        if !judged {
            print(
                "NOT A MEASUREMENT: \(config.smoke ? "smoke sizes" : "full sizes"), \(configuration) build; "
                    + "no row is judged against its target (run scripts/bench for that)")
        }
        print(Table.text(rows))
        let results = Results(
            date: ISO8601DateFormatter().string(from: Date()),
            command: ProcessInfo.processInfo.environment["LIVERY_BENCH_COMMAND"]
                ?? CommandLine.arguments.joined(separator: " "),
            mode: config.smoke ? "smoke" : "full", configuration: configuration, judged: judged, seconds: seconds,
            machine: Results.machine(), rows: rows, failures: failures)
        do {
            try results.write(to: jsonPath)
            if let markdownPath { try Data(Table.markdown(rows).utf8).write(to: URL(fileURLWithPath: markdownPath)) }
        } catch {
            FileHandle.standardError.write(Data("could not write results: \(error)\n".utf8))
            exit(1)
        }
        let misses = rows.filter { $0.verdict == .miss }.count
        print(
            "\(rows.count) rows, \(misses) missed, \(rows.filter { $0.verdict == .notMeasured }.count) not measured yet, "
                + "\(rows.filter { $0.verdict == .notJudged }.count) not judged; "
                + "\(Format.number(seconds, digits: 1)) s; results in \(jsonPath)")
        // A missed target is a finding, not a failure of the harness; a figure that threw is.
        exit(failures.isEmpty ? 0 : 1)
    }
}
