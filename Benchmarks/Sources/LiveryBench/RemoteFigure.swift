import Foundation
import Livery
import LiveryRemote
import LiveryServer
import Logging

/// Figure 2: a push (`PUT /v1/specs/card.yaml`) → the new traits applied on 100 targets in a
/// client following the daemon with `provider.follow(url:mode:)`, over loopback, by long-poll
/// and by server-sent events; beside the same PUT's own round trip (push → 2xx), timed on the
/// very same requests.
///
/// The daemon is the real `LiveryDaemon` in this process on port 0, with its default watcher
/// configuration: a push is validated, written atomically, seen by the watcher like any edit,
/// re-read, and published to the waiting clients. The baseline is the part of that path the
/// pusher waits for; the subject adds the watcher, the publish, the client's fetch, parse and
/// load. Pushes are 30 ms apart, past the watcher's settle window, so each is a single change.
enum RemoteFigure {
    static let figure = Figure(number: "2", title: "Remote reload") { config in try run(config) }

    static let targetCount = 100

    static func run(_ config: BenchConfig) throws -> [Row] {
        let pushes = config.smoke ? 10 : 100
        let folder = try TemporaryBenchFolder()
        let specs = folder.url.appendingPathComponent("Specs")
        try spec(step: 0).write(to: specs.appendingPathComponent("card.yaml"))
        let token = BearerToken.random()
        let daemon = LiveryDaemon(
            configuration: DaemonConfiguration(directory: specs, port: 0), token: token,
            logger: Logger(label: "bench") { _ in SwiftLogNoOpLogHandler() })
        let serving = Task { try await daemon.run() }
        defer { serving.cancel() }
        let port = try Blocking.run { try await daemon.listeningPort() }
        let base = try url("http://127.0.0.1:\(port)")
        let pusher = Pusher(url: try url("http://127.0.0.1:\(port)/v1/specs/card.yaml"), token: token)

        var rows: [Row] = []
        var step = 0
        for (name, mode, label) in [
            ("long-poll", RemoteSpecSource.Mode.longPoll, ".longPoll"), ("SSE", .serverSentEvents, ".serverSentEvents"),
        ] {
            let applied = AppliedLog()
            let styler = CardStyler(targets: targetCount)
            let following = Task { await styler.follow(base, mode: mode, log: applied) }
            defer { following.cancel() }
            guard applied.wait(for: 1, timeout: .seconds(10)) else {
                throw BenchError("\(name): the first spec was never applied")
            }
            Thread.sleep(forTimeInterval: 0.05)  // the client's next request is on its way

            var sentAt: [ContinuousClock.Instant] = []
            var answered: [Double] = []
            var answeredAt: [ContinuousClock.Instant] = []
            for index in 1...pushes {
                step += 1
                let body = spec(step: step)
                let start = ContinuousClock.now
                try Blocking.run { try await pusher.put(body) }
                let end = ContinuousClock.now
                answered.append((end - start).nanoseconds)
                answeredAt.append(end)
                sentAt.append(start)
                guard applied.wait(for: index + 1, timeout: .seconds(5)) else {
                    throw BenchError("\(name): push \(index) was never applied")
                }
                Thread.sleep(forTimeInterval: 0.03)
            }
            let touched = applied.targetsTouched
            guard touched.allSatisfy({ $0 == targetCount }) else {
                throw BenchError(
                    "\(name): a reload restyled \(touched.filter { $0 != targetCount }) targets, not \(targetCount)")
            }
            let subject = Samples(nanoseconds: zip(sentAt, applied.times.dropFirst()).map { ($1 - $0).nanoseconds })
            let baseline = Samples(nanoseconds: answered)
            // What the reload adds to the push: from the 2xx to the traits applied in the client.
            let after = Samples(nanoseconds: zip(answeredAt, applied.times.dropFirst()).map { ($1 - $0).nanoseconds })
            let floor = try DurableWrite.time(
                spec(step: step), into: folder.url.appendingPathComponent("logs"), count: pushes)
            let size = config.smoke ? "\(pushes) pushes (smoke)" : "\(pushes) pushes"
            rows.append(
                Row(
                    figure: "2",
                    metric: "PUT → traits applied on \(targetCount) targets in a remote client, \(name), \(size)",
                    unit: "ms", value: subject.median / 1e6, p99: subject.p99 / 1e6,
                    baseline: "the same PUTs' round trip (push → 2xx)", baselineValue: baseline.median / 1e6,
                    ratio: subject.median / baseline.median, cpuRatio: nil, target: "median ≤ 5 ms",
                    verdict: subject.median <= 5e6 ? .pass : .miss,
                    notes: "baseline p99 \(Format.number(baseline.p99 / 1e6)) ms; the same file's durable write alone "
                        + "(temp, fsync, rename, fsync folder) \(Format.number(floor.median / 1e6)) ms; applied a median "
                        + "\(Format.number(after.median / 1e6)) ms after the 2xx (p99 \(Format.number(after.p99 / 1e6))); "
                        + "in-process LiveryDaemon, loopback, provider.follow(url:mode: \(label))"))
        }
        return rows
    }

    /// The card's colour and radius at `step`: each push's `card.yaml` (figure 14's too).
    static func spec(step: Int) -> Data {
        let blue = String(step % 256, radix: 16)
        let colour = "#00" + (blue.count == 1 ? "0" + blue : blue) + "00"
        return Data(
            "specs:\n  card:\n    - { type: BackgroundColor, color: \"\(colour)\" }\n    - { type: CornerRadius, radius: \(step % 50) }\n"
                .utf8)
    }

    private static func url(_ text: String) throws -> URL {
        guard let url = URL(string: text) else { throw BenchError("bad URL \(text)") }
        return url
    }
}
