import Foundation

/// What `bench-results.json` holds: the machine, how the run was made, and every row.
struct Results: Codable {
    struct Machine: Codable {
        var processors: Int
        var cpu: String
        var swift: String
        var os: String
    }

    var date: String
    var command: String
    /// "full" or "smoke" (tiny sizes: the harness ran, nothing was measured).
    var mode: String
    /// "release" or "debug", the build that ran the figures.
    var configuration: String
    /// Whether rows were judged against their targets: only a full run of a release build is.
    var judged: Bool
    var seconds: Double
    var machine: Machine
    var rows: [Row]
    /// Figures that threw instead of measuring, with the error.
    var failures: [String]

    static func machine() -> Machine {
        let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let model = cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") }
            .map { $0.split(separator: ":", maxSplits: 1).last.map { $0.trimmingCharacters(in: .whitespaces) } ?? "" }
        let environment = ProcessInfo.processInfo.environment
        return Machine(
            processors: ProcessInfo.processInfo.activeProcessorCount,
            cpu: model ?? "unknown",
            swift: environment["LIVERY_BENCH_SWIFT_VERSION"] ?? "unknown (run through scripts/bench)",
            os: ProcessInfo.processInfo.operatingSystemVersionString)
    }

    func write(to path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        try encoder.encode(self).write(to: URL(fileURLWithPath: path), options: .atomic)
    }
}
