import Foundation
import Livery
import LiveryRemote
import LiveryServer
import LiveryTUF
import Logging

/// Figure 14 (issue 42): a push (`PUT /v1/specs/card.yaml`) → the new traits applied in a client
/// that verifies each version through the daemon's TUF repository (`trust: .tuf(root:)`), beside
/// a client that follows the same daemon without verifying, timed on the very same pushes.
///
/// The daemon is the real `LiveryDaemon` in this process with signed delivery on (a signing
/// folder made as `livery signing init` makes it, the daemon holding the targets, snapshot and
/// timestamp keys), serving figure 3's generated spec beside figure 2's card, so each version
/// is a ~52 KB bundle. Both clients follow it at once in the version mode (`.version`), each
/// with 100 targets under `card`, in an actor of its own: both hear the same signal under the
/// same load. The verifying one then walks the repository (the next root, `timestamp.json`,
/// the snapshot and targets they name) and fetches the bundle as the signed target; the other
/// fetches `/v1/spec/{etag}`. Pushes wait for both clients, then 30 ms, past the watcher's
/// settle window.
enum VerifyFigure {
    static let figure = Figure(number: "14", title: "Verified delivery") { config in try run(config) }

    static let targetCount = 100

    static func run(_ config: BenchConfig) throws -> [Row] {
        let pushes = config.smoke ? 10 : 100
        let folder = try TemporaryBenchFolder()
        let specs = folder.url.appendingPathComponent("Specs")
        try Data(ServeFigure.generatedSpec().utf8).write(to: specs.appendingPathComponent("ui.yaml"))
        try RemoteFigure.spec(step: 0).write(to: specs.appendingPathComponent("card.yaml"))
        let bundleBytes = try Spec(directory: specs).bundleJSON.utf8.count
        let signing = try SigningFolder.create(at: folder.url.appendingPathComponent("signing"), now: Date())
        var configuration = DaemonConfiguration(directory: specs, port: 0)
        configuration.signing = try DaemonSigning(folder: signing)
        configuration.stateDirectory = folder.url.appendingPathComponent("state")
        let token = BearerToken.random()
        let daemon = LiveryDaemon(
            configuration: configuration, token: token,
            logger: Logger(label: "bench") { _ in SwiftLogNoOpLogHandler() })
        let serving = Task { try await daemon.run() }
        defer { serving.cancel() }
        let port = try Blocking.run { try await daemon.listeningPort() }
        guard let base = URL(string: "http://127.0.0.1:\(port)"),
            let pushURL = URL(string: "http://127.0.0.1:\(port)/v1/specs/card.yaml")
        else { throw BenchError("no URL for port \(port)") }
        let pusher = Pusher(url: pushURL, token: token)

        let verifying = Side(name: "the verifying client", instance: "verifying")
        let plain = Side(name: "the client without verification", instance: "plain")
        let root = signing.rootFile(version: 1)
        let followers = [
            Task { await verifying.follow(base, trust: .tuf(root: root)) },
            Task { await plain.follow(base, trust: nil) },
        ]
        defer { for following in followers { following.cancel() } }
        for side in [verifying, plain] {
            guard side.applied.wait(for: 1, timeout: .seconds(10)) else {
                throw BenchError("\(side.name) never applied the first version: \(side.applied.firstFailure ?? "")")
            }
            side.applied.forgetFailures()
        }
        Thread.sleep(forTimeInterval: 0.05)  // both clients' next waits are on their way

        var sentAt: [ContinuousClock.Instant] = []
        var answered: [Double] = []
        for index in 1...pushes {
            let body = RemoteFigure.spec(step: index)
            let start = ContinuousClock.now
            try Blocking.run { try await pusher.put(body) }
            answered.append((ContinuousClock.now - start).nanoseconds)
            sentAt.append(start)
            for side in [verifying, plain] {
                guard side.applied.wait(for: index + 1, timeout: .seconds(10)) else {
                    throw BenchError(
                        "\(side.name) never applied push \(index): \(side.applied.firstFailure ?? "no failure")")
                }
            }
            Thread.sleep(forTimeInterval: 0.03)
        }
        for side in [verifying, plain] {
            let wrong = side.applied.targetsTouched.filter { $0 != targetCount }
            guard wrong.isEmpty else {
                throw BenchError("\(side.name): a reload restyled \(wrong) targets, not \(targetCount)")
            }
        }
        let subject = verifying.samples(from: sentAt)
        let baseline = plain.samples(from: sentAt)
        let roundTrip = Samples(nanoseconds: answered)
        let ratio = subject.median / baseline.median
        let size = config.smoke ? "\(pushes) pushes (smoke; issue: 100)" : "\(pushes) pushes"
        return [
            Row(
                figure: "14",
                metric: "PUT → traits applied on \(targetCount) targets, verifying each version "
                    + "(trust: .tuf(root:)), \(Format.count(bundleBytes)) B bundle, \(size)",
                unit: "ms", value: subject.median / 1e6, p99: subject.p99 / 1e6,
                baseline: "the same pushes applied by a client following without verification",
                baselineValue: baseline.median / 1e6, ratio: ratio, cpuRatio: nil, target: "≤ 1.2×",
                verdict: ratio <= 1.2 ? .pass : .miss,
                notes: "baseline p99 \(Format.number(baseline.p99 / 1e6)) ms, p99 ratio "
                    + "\(Format.number(subject.p99 / baseline.p99))×; the PUTs' own round trip "
                    + "\(Format.number(roundTrip.median / 1e6)) ms (p99 \(Format.number(roundTrip.p99 / 1e6))); "
                    + "failed updates during the pushes, retried: \(verifying.failureNote) verifying, \(plain.failureNote) without; "
                    + "in-process LiveryDaemon --signing (online targets, snapshot, timestamp keys), both clients "
                    + "at once in this process, provider.follow(url:mode: .version), no offline cache, loopback")
        ]
    }

    /// One client: its styler and the log of what it applied.
    private final class Side: Sendable {
        let name: String
        let instance: String
        let styler = CardStyler(targets: VerifyFigure.targetCount)
        let applied = AppliedLog()

        init(name: String, instance: String) {
            self.name = name
            self.instance = instance
        }

        /// Follows the daemon at `base` in the version mode, verifying with `trust` if given.
        func follow(_ base: URL, trust: RemoteSpecSource.Trust?) async {
            await styler.follow(base, mode: .version, instance: instance, trust: trust, log: applied)
        }

        /// Each push's time from its PUT being sent to this client's load report.
        func samples(from sentAt: [ContinuousClock.Instant]) -> Samples {
            Samples(nanoseconds: zip(sentAt, applied.times.dropFirst()).map { ($1 - $0).nanoseconds })
        }

        /// The updates that failed and were retried, with their kinds.
        var failureNote: String {
            applied.failures == 0 ? "0" : "\(applied.failures) (\(applied.failureKinds))"
        }
    }
}
