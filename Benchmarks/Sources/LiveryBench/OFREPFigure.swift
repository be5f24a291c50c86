import Foundation
import LiveryServer
import Logging

/// Figure 13: OpenFeature's remote evaluation protocol on the daemon. A polling provider's bulk
/// evaluation answered 304, beside the poll every Livery client makes (`GET /v1/spec` answered
/// 304), and single evaluations, each answered in full; wrk against the in-process daemon serving
/// figure 3's spec, the two sides alternating in the same run.
enum OFREPFigure {
    static let figure = Figure(number: "13", title: "OpenFeature (OFREP)") { config in
        let runs = Wrk.Runs(config)
        let folder = try TemporaryBenchFolder()
        try Data(ServeFigure.generatedSpec().utf8).write(to: folder.url.appendingPathComponent("Specs/ui.yaml"))
        let post = folder.url.appendingPathComponent("post.lua")
        try Data(
            #"wrk.method = "POST"; wrk.body = '{"context": {"theme": "dark"}}'; wrk.headers["Content-Type"] = "application/json""#
                .utf8
        ).write(to: post)
        // wrk is one address asking as fast as it can: no evaluation rate, or it would measure the 429s.
        var configuration = DaemonConfiguration(directory: folder.url.appendingPathComponent("Specs"), port: 0)
        configuration.maxEvaluationsPerPeer = Int(Int32.max)
        let daemon = LiveryDaemon(
            configuration: configuration,
            token: BearerToken.random(), logger: Logger(label: "bench") { _ in SwiftLogNoOpLogHandler() })
        let serving = Task { try await daemon.run() }
        defer { serving.cancel() }
        let base = "http://127.0.0.1:\(try Blocking.run { try await daemon.listeningPort() })"
        let spec = try Curl.head(base + "/v1/spec")
        let bulk = try Curl.head(
            base + "/ofrep/v1/evaluate/flags", arguments: ["-X", "POST", "-d", #"{"context": {"theme": "dark"}}"#])
        let baseline = (url: base + "/v1/spec", headers: ["If-None-Match: \(spec.etag)"], script: URL?.none)
        return try [
            row(
                "wrk POST /ofrep/v1/evaluate/flags (theme dark), 304 (If-None-Match), requests/s",
                (base + "/ofrep/v1/evaluate/flags", ["If-None-Match: \(bulk.etag)"], post), baseline, runs,
                notes: "\(bulk.bytes) B when answered in full"),
            row(
                "wrk POST /ofrep/v1/evaluate/flags/colors.accent (theme dark), requests/s",
                (base + "/ofrep/v1/evaluate/flags/colors.accent", [], post), baseline, runs, notes: "200 each"),
        ]
    }

    /// Requests per second of `subject` beside `baseline`: `runs.rounds` alternating runs of each
    /// and the medians. The issue sets no target: the ratio is information.
    private static func row(
        _ metric: String, _ subject: (url: String, headers: [String], script: URL?),
        _ baseline: (url: String, headers: [String], script: URL?), _ runs: Wrk.Runs, notes: String
    ) throws -> Row {
        let seconds = runs.seconds
        var ours: [Double] = []
        var theirs: [Double] = []
        for _ in 0..<runs.rounds {
            ours.append(
                try Wrk.requestsPerSecond(
                    subject.url, headers: subject.headers, script: subject.script, seconds: seconds))
            theirs.append(
                try Wrk.requestsPerSecond(
                    baseline.url, headers: baseline.headers, script: baseline.script, seconds: seconds))
        }
        let value = Samples.percentile(50, of: ours)
        let baselineValue = Samples.percentile(50, of: theirs)
        return Row(
            figure: "13", metric: metric, unit: "req/s", value: value, p99: nil,
            baseline: "wrk GET /v1/spec, 304 (If-None-Match)", baselineValue: baselineValue,
            ratio: value / baselineValue, cpuRatio: nil, target: "(none: information)", verdict: .info,
            notes:
                "figure 3's spec; \(notes); wrk -t2 -c64 -d\(seconds)s, medians of \(runs.rounds) alternating runs, the daemon and wrk on the same 2 cores"
        )
    }
}
