import Foundation
import LiveryServer

/// Figure 12: environments. `livery serve --environments ROOT` (the release executable, a
/// separate process) with 100 environments against one with one, each environment holding
/// figure 3's generated spec: the resident memory an idle environment adds (`VmRSS`, after a few
/// requests to each), and the latency of a push to one environment (`PUT` to its 2xx answer,
/// which validates the whole set and commits it) beside the same push on the daemon with one.
enum EnvironmentsFigure {
    static let figure = Figure(number: "12", title: "Environments") { config in try run(config) }

    static func run(_ config: BenchConfig) throws -> [Row] {
        let pushes = config.smoke ? 10 : 100
        // The smoke run's 10: the idle environments are asked for by curl, three times each.
        let environments = config.smoke ? 10 : 100
        let one = try Side(environments: 1)
        defer { one.stop() }
        let many = try Side(environments: environments)
        defer { many.stop() }
        let (idleOne, idleMany) = (try one.idleBytes(), try many.idleBytes())
        let perEnvironment = (idleMany - idleOne) / Double(environments - 1)
        let baseline = try one.pushes(pushes)
        let subject = try many.pushes(pushes)
        let size = config.smoke ? "\(pushes) pushes (smoke)" : "\(pushes) pushes"
        return [
            Row(
                figure: "12", metric: "daemon resident memory per idle environment, \(environments) environments",
                unit: "kB/environment", value: perEnvironment / 1000, p99: nil,
                baseline: "the daemon with one environment: \(mebibytes(idleOne)) VmRSS", baselineValue: nil,
                ratio: nil, cpuRatio: nil, target: "≤ 1,000 kB", verdict: perEnvironment <= 1_000_000 ? .pass : .miss,
                notes: "VmRSS \(mebibytes(idleOne)) with one environment, \(mebibytes(idleMany)) with "
                    + "\(environments); each a folder watched, a hub, a bundle of figure 3's spec"),
            Row(
                figure: "12", metric: "PUT to one of \(environments) environments → answered, \(size)", unit: "ms",
                value: subject.median / 1e6, p99: subject.p99 / 1e6,
                baseline: "the same PUT on a daemon with one environment", baselineValue: baseline.median / 1e6,
                ratio: subject.median / baseline.median, cpuRatio: nil, target: "ratio ≤ 1.2",
                verdict: subject.median / baseline.median <= 1.2 ? .pass : .miss,
                notes: "baseline p99 \(Format.number(baseline.p99 / 1e6)) ms; each push validates the environment's "
                    + "whole set and commits it"),
        ]
    }

    /// One daemon serving `environments` environments (`default` and `e1`…), each with the spec.
    private final class Side {
        let daemon: DaemonProcess
        let folder: TemporaryBenchFolder
        let base: String
        let pusher: Pusher

        init(environments: Int) throws {
            folder = try TemporaryBenchFolder()
            let root = folder.url.appendingPathComponent("environments")
            let spec = Data(ServeFigure.generatedSpec().utf8)
            for name in ["default"] + (1..<environments).map({ "e\($0)" }) {
                let environment = root.appendingPathComponent(name)
                try FileManager.default.createDirectory(at: environment, withIntermediateDirectories: true)
                try spec.write(to: environment.appendingPathComponent("ui.yaml"))
            }
            let token = BearerToken.random()
            let tokenFile = folder.url.appendingPathComponent("token")
            try Data(token.text.utf8).write(to: tokenFile)
            daemon = try DaemonProcess(directory: root, tokenFile: tokenFile, environments: true)
            base = "http://127.0.0.1:\(daemon.port)"
            pusher = Pusher(url: URL(string: base + "/v1/specs/pushed.yaml")!, token: token)
        }

        /// `VmRSS` once every environment has answered a few requests.
        func idleBytes() throws -> Double {
            for name in try FileManager.default.contentsOfDirectory(
                atPath: folder.url.appendingPathComponent("environments").path)
            {
                for _ in 0..<3 { _ = try Curl.head(base + "/v1/environments/\(name)/spec") }
            }
            Thread.sleep(forTimeInterval: 0.5)
            return try daemon.residentBytes()
        }

        /// The time of each of `count` pushes to the default environment, from the request to
        /// its answer.
        func pushes(_ count: Int) throws -> Samples {
            var times: [Double] = []
            for step in 0..<(count + 2) {
                let body = Data("specs:\n  pushed:\n    - { type: CornerRadius, radius: \(step + 1) }\n".utf8)
                let start = ContinuousClock.now
                try Blocking.run { [pusher] in try await pusher.put(body) }
                // The first two warm the write path up.
                if step >= 2 { times.append((ContinuousClock.now - start).nanoseconds) }
            }
            return Samples(nanoseconds: times)
        }

        func stop() { daemon.stop() }
    }

    private static func mebibytes(_ bytes: Double) -> String {
        Format.number(bytes / 1_048_576) + " MiB"
    }
}
