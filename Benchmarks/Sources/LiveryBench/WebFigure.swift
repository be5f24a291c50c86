import Foundation
import Livery
import LiveryServer
import Logging

/// Figure 10: the spec as CSS. Rendering a realistic spec's stylesheet (every theme), beside
/// encoding the same spec's bundle JSON, which the daemon also does once per version; and wrk
/// against `GET /v1/css` beside nginx serving the same bytes, as figure 3 does for the bundle.
/// (Push → restyled in a browser is measured by `Benchmarks/web_push.py`, in Chromium.)
enum WebFigure {
    static let figure = Figure(number: "10", title: "Web pages") { config in
        try rendering(config) + serving(config) + browser(config)
    }

    /// `Benchmarks/web_push.py`: push → computed style changed in Chromium, against the pushes'
    /// own round trips.
    static func browser(_ config: BenchConfig) throws -> [Row] {
        let pushes = config.smoke ? 3 : 21
        // The python3 on PATH: the one scripts/bench installed Selenium for.
        let output = try Command.run(
            "/usr/bin/env",
            [
                "python3", "Benchmarks/web_push.py", "--livery", try DaemonProcess.liveryExecutable().path, "--pushes",
                String(pushes),
            ])
        struct Result: Decodable {
            var milliseconds: [Double]
            var push: [Double]
        }
        let result = try JSONDecoder().decode(Result.self, from: Data(output.utf8))
        let median = Samples.percentile(50, of: result.milliseconds)
        let baseline = Samples.percentile(50, of: result.push)
        return [
            Row(
                figure: "10", metric: "push → computed style changed in Chromium, \(pushes) pushes", unit: "ms",
                value: median, p99: Samples.percentile(99, of: result.milliseconds),
                baseline: "the same pushes' round trip (POST /v1/specs → 2xx)", baselineValue: baseline,
                ratio: median / baseline, cpuRatio: nil, target: "median ≤ 50 ms",
                verdict: median <= 50 ? .pass : .miss,
                notes:
                    "livery serve --allow-origin, page on another origin following /v1/livery.js (version signal), headless Chromium via Selenium, loopback"
            )
        ]
    }

    static func rendering(_ config: BenchConfig) throws -> [Row] {
        var rows: [Row] = []
        for bytes in config.smoke ? [16 << 10] : [64 << 10, 1 << 20] {
            let (text, identifiers) = RealisticSpec.text(atLeast: bytes, yaml: false)
            let spec = try Spec(json: text)
            let styleSheet = try spec.styleSheet()
            guard styleSheet.traitTypesWithoutCSS.isEmpty else {
                throw BenchError("the realistic spec uses traits with no CSS form: \(styleSheet.traitTypesWithoutCSS)")
            }
            let pair = try Measure.pair(
                bytes > 100_000 ? config.slowTiming : config.timing,
                subject: { blackHole(try spec.styleSheet()) },
                baseline: { blackHole(spec.bundleJSON) })
            let size = "\(Format.count(text.utf8.count)) B JSON"
            var row = Row.timed(
                "10", "render the stylesheet of a realistic spec (\(size), every theme)", pair,
                baseline: "the same spec's bundle JSON (Spec.bundleJSON)", maxRatio: nil,
                notes:
                    "\(Format.count(identifiers)) identifiers, 2 themes, \(Format.count(styleSheet.text.utf8.count)) B of CSS"
            )
            if bytes <= 100_000 {
                row.target = "≤ 2 ms"
                row.verdict = pair.subject.median <= 2e6 ? .pass : .miss
            }
            rows.append(row)
        }
        return rows
    }

    static func serving(_ config: BenchConfig) throws -> [Row] {
        let runs = Wrk.Runs(config)
        let folder = try TemporaryBenchFolder()
        try Data(ServeFigure.generatedSpec().utf8).write(to: folder.url.appendingPathComponent("Specs/ui.yaml"))
        let spec = try Spec(directory: folder.url.appendingPathComponent("Specs"))
        let css = try spec.styleSheet().text
        let www = folder.url.appendingPathComponent("www")
        try Data(css.utf8).write(to: www.appendingPathComponent("livery.css"))
        try Data(spec.bundleJSON.utf8).write(to: www.appendingPathComponent("bundle.json"))

        let daemon = LiveryDaemon(
            configuration: DaemonConfiguration(directory: folder.url.appendingPathComponent("Specs"), port: 0),
            token: BearerToken.random(), logger: Logger(label: "bench") { _ in SwiftLogNoOpLogHandler() })
        let serving = Task { try await daemon.run() }
        defer { serving.cancel() }
        let port = try Blocking.run { try await daemon.listeningPort() }
        let livery = "http://127.0.0.1:\(port)/v1/css"
        let nginx = try NginxServer(root: www, work: folder.url)
        defer { nginx.stop() }
        let plain = "http://127.0.0.1:\(nginx.port)/livery.css"
        let liveryHead = try Curl.head(livery)
        let nginxHead = try Curl.head(plain)
        guard liveryHead.bytes == nginxHead.bytes, liveryHead.bytes == css.utf8.count else {
            throw BenchError("the servers disagree on the stylesheet: \(liveryHead.bytes) and \(nginxHead.bytes) bytes")
        }
        let size = "\(Format.count(css.utf8.count)) B stylesheet"
        return try [
            ("304 (If-None-Match)", ["If-None-Match: \(liveryHead.etag)"], ["If-None-Match: \(nginxHead.etag)"]),
            ("200", [], []),
        ].map { name, liveryHeaders, nginxHeaders in
            try Wrk.row(
                figure: "10", metric: "wrk GET /v1/css, \(size), \(name), requests/s", livery: (livery, liveryHeaders),
                nginx: (plain, nginxHeaders), baseline: "nginx, same bytes, ETags on", runs: runs)
        }
    }
}
