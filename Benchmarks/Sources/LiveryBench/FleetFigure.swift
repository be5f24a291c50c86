import Foundation
import LiveryRemote
import LiveryServer
import LiveryTUF
import LiveryTestSupport

/// Figure 9: a fleet of clients through the shipped nginx front (`deploy/nginx/livery.conf`, with
/// nchan) in front of one `livery serve` process that warms it and publishes the version signal
/// to it (`--warm-front`), beside the same clients long-polling that daemon directly and
/// following a second front of the same conf that the daemon does not tell, in the same run: the
/// requests the daemon answers per change, and the time from a push until every client has
/// applied it.
///
/// Each client is real: a `TraitsProvider` with one target, following with
/// `provider.follow(url:mode:)`, so a `RemoteSpecSource` with its own `HTTPClient` (on the
/// shared event loop group), fetching, parsing and loading each version. Through nginx they use
/// the version signal (`.version`), directly the long-poll (`.longPoll`), both waiting 30 s.
/// The daemon is a child process, so its work is its own; the clients share this process.
enum FleetFigure {
    static let figure = Figure(number: "9", title: "A fleet through nginx") { config in try run(config) }

    static let wait = Duration.seconds(30)

    static func run(_ config: BenchConfig) throws -> [Row] {
        let clients = config.smoke ? 50 : 5_000
        let pushes = config.smoke ? 2 : 5
        // The clients' sockets here, and the daemon's (it inherits the limit) when they go direct.
        try RawClients.raiseFileLimit(to: clients + 1_024)
        let folder = try TemporaryBenchFolder()
        let specs = folder.url.appendingPathComponent("Specs")
        try spec(step: 0).write(to: specs.appendingPathComponent("card.yaml"))
        let token = BearerToken.random()
        let tokenFile = folder.url.appendingPathComponent("token")
        try Data(token.text.utf8).write(to: tokenFile)
        let frontPort = try FreePort.find()
        let daemon = try DaemonProcess(
            directory: specs, tokenFile: tokenFile, arguments: ["--warm-front", "http://127.0.0.1:\(frontPort)"])
        defer { daemon.stop() }
        // Room for two fleets: a fleet's start may overlap the end of the one before, whose
        // connections nginx still holds (Benchmarks/README.md, figure 9's rollout rows).
        var front = try FleetFront(
            root: folder.url.appendingPathComponent("nginx"), daemonPorts: [daemon.port],
            connections: 2 * clients + 1_024, port: frontPort)
        defer { front.stop() }
        let coldFront = try FleetFront(
            root: folder.url.appendingPathComponent("nginx-cold"), daemonPorts: [daemon.port],
            connections: 2 * clients + 1_024)
        defer { coldFront.stop() }
        let pusher = Pusher(url: try url("http://127.0.0.1:\(daemon.port)/v1/specs/card.yaml"), token: token)

        var step = 0
        let direct = try measure(
            clients: clients, pushes: pushes, following: try url("http://127.0.0.1:\(daemon.port)"),
            mode: .longPoll(wait: wait), daemon: daemon, pusher: pusher, step: &step)
        let cold = try measure(
            clients: clients, pushes: pushes, following: try url("http://127.0.0.1:\(coldFront.port)"),
            mode: .version(wait: wait), daemon: daemon, pusher: pusher, step: &step)
        let throughNginx = try measure(
            clients: clients, pushes: pushes, following: try url("http://127.0.0.1:\(front.port)"),
            mode: .version(wait: wait), daemon: daemon, pusher: pusher, step: &step)

        let rollout = try RolloutMeasure.run(
            clients: clients, following: try url("http://127.0.0.1:\(front.port)"), daemon: daemon, token: token,
            wait: wait)
        let restarted = try frontRestarted(
            clients: clients, front: &front, daemon: daemon, pusher: pusher, step: &step)
        let verifying = try verifyingFleet(
            clients: clients, pushes: pushes, folder: folder.url, tokenFile: tokenFile, token: token, step: &step)

        let size = config.smoke ? "\(Format.count(clients)) clients (smoke; issue: 5,000)" : "5,000 clients"
        let baseline = "the same clients long-polling the daemon directly"
        let perChange = Samples.percentile(50, of: throughNginx.requests)
        let directPerChange = Samples.percentile(50, of: direct.requests)
        let common =
            "\(pushes) pushes; one livery serve process warming and telling the front (--warm-front); nginx 1 worker, the shipped "
            + "conf (ports and paths changed); clients: provider.follow(url:mode:) in this process, wait 30 s"
        let pushToAll = throughNginx.all.median / 1e6
        let freshness = throughNginx.all.median / direct.all.median
        let medianFreshness = throughNginx.half.median / direct.half.median
        let rolloutNotes =
            "cohort of \(rollout.cohort) (10 % by the formula); each client with its own instance, following nginx "
            + "with .version; baseline: the median push to every client through nginx above; failed updates: "
            + "\(rollout.failures)\(rollout.failures > 0 ? " (\(rollout.failureKinds))" : ""); nginx alerts: "
            + "\(front.alerts); \(common)"
        let verifyingPerChange = Samples.percentile(50, of: verifying.requests)
        let verifyingNotes =
            "clients with trust: .tuf(root: 1.root.json), verifying each version (root, timestamp, snapshot, targets "
            + "and the bundle's hash) before applying it; a daemon with --signing (livery signing init) and a front of "
            + "their own, the same conf; failed updates: \(verifying.failures)"
            + (verifying.firstFailure.map { " (\($0))" } ?? "") + "; \(common)"
        return [
            Row(
                figure: "9", metric: "daemon requests per change, \(size) verifying (TUF) through nginx",
                unit: "requests", value: verifyingPerChange, p99: nil, baseline: baseline,
                baselineValue: directPerChange, ratio: verifyingPerChange / directPerChange, cpuRatio: nil,
                target: "a handful (≤ 25), not one per client", verdict: verifyingPerChange <= 25 ? .pass : .miss,
                notes: "per push: \(verifying.requests.map { Format.count(Int($0)) }.joined(separator: ", ")) "
                    + "(the most, \(verifying.busiestPush)); " + verifyingNotes),
            Row(
                figure: "9", metric: "push → applied by every one of \(size) verifying (TUF) through nginx",
                unit: "ms", value: verifying.all.median / 1e6, p99: verifying.all.p99 / 1e6,
                baseline: "the same clients not verifying, through nginx", baselineValue: pushToAll,
                ratio: verifying.all.median / throughNginx.all.median, cpuRatio: nil, target: "", verdict: .info,
                notes: "the median client after \(Format.number(verifying.half.median / 1e6)) ms (not verifying: "
                    + "\(Format.number(throughNginx.half.median / 1e6)) ms); " + verifyingNotes),
            Row(
                figure: "9", metric: "rollout to 10 % → the whole cohort applied, \(size) through nginx", unit: "ms",
                value: rollout.started.nanoseconds / 1e6, p99: nil, baseline: "a push to all, through nginx",
                baselineValue: pushToAll, ratio: rollout.started.nanoseconds / 1e6 / pushToAll, cpuRatio: nil,
                target: "≤ 1 s", verdict: rollout.started <= .seconds(1) ? .pass : .miss, notes: rolloutNotes),
            Row(
                figure: "9", metric: "rollout abort → every cohort member back on stable, \(size) through nginx",
                unit: "ms", value: rollout.aborted.nanoseconds / 1e6, p99: nil,
                baseline: "a push to all, through nginx",
                baselineValue: pushToAll, ratio: rollout.aborted.nanoseconds / 1e6 / pushToAll, cpuRatio: nil,
                target: "≤ 1 s", verdict: rollout.aborted <= .seconds(1) ? .pass : .miss, notes: rolloutNotes),
            Row(
                figure: "9", metric: "daemon requests per rollout change (start, abort), \(size) through nginx",
                unit: "requests", value: Double(max(rollout.startRequests, rollout.abortRequests)), p99: nil,
                baseline: baseline, baselineValue: directPerChange,
                ratio: Double(max(rollout.startRequests, rollout.abortRequests)) / directPerChange, cpuRatio: nil,
                target: "a handful (≤ 25), not one per client",
                verdict: max(rollout.startRequests, rollout.abortRequests) <= 25 ? .pass : .miss,
                notes: "start \(rollout.startRequests), abort \(rollout.abortRequests) (the POST itself not counted; "
                    + "start: \(rollout.startRoutes); abort: \(rollout.abortRoutes)); " + rolloutNotes),
            Row(
                figure: "9", metric: "daemon requests per change, \(size) following through nginx",
                unit: "requests", value: perChange, p99: nil, baseline: baseline, baselineValue: directPerChange,
                ratio: perChange / directPerChange, cpuRatio: nil, target: "a handful (≤ 25), not one per client",
                verdict: perChange <= 25 ? .pass : .miss,
                notes: "per push: \(throughNginx.requests.map { Format.count(Int($0)) }.joined(separator: ", ")) "
                    + "(direct: \(direct.requests.map { Format.count(Int($0)) }.joined(separator: ", "))); \(common)"),
            Row(
                figure: "9", metric: "push → applied by every one of \(size) following through nginx",
                unit: "ms", value: throughNginx.all.median / 1e6, p99: throughNginx.all.p99 / 1e6,
                baseline: baseline, baselineValue: direct.all.median / 1e6, ratio: freshness, cpuRatio: nil,
                target: "≤ 1.2× direct", verdict: freshness <= 1.2 ? .pass : .miss,
                notes: "failed updates, retried: \(throughNginx.failures) through nginx, \(direct.failures) direct"
                    + [throughNginx.firstFailure, direct.firstFailure].compactMap { $0.map { " (\($0))" } }.joined()
                    + "; \(common)"),
            Row(
                figure: "9", metric: "push → applied by the median client of \(size) following through nginx",
                unit: "ms", value: throughNginx.half.median / 1e6, p99: nil, baseline: baseline,
                baselineValue: direct.half.median / 1e6, ratio: medianFreshness, cpuRatio: nil,
                target: "≤ 1.2× direct", verdict: medianFreshness <= 1.2 ? .pass : .miss, notes: common),
            Row(
                figure: "9", metric: "push → applied by every one of \(size) through a front the daemon does not tell",
                unit: "ms", value: cold.all.median / 1e6, p99: cold.all.p99 / 1e6, baseline: baseline,
                baselineValue: direct.all.median / 1e6, ratio: cold.all.median / direct.all.median, cpuRatio: nil,
                target: "", verdict: .info,
                notes: "the median client after \(Format.number(cold.half.median / 1e6)) ms; daemon requests per "
                    + "push: \(cold.requests.map { Format.count(Int($0)) }.joined(separator: ", ")); failed updates: "
                    + "\(cold.failures); a second nginx with the same conf in front of the same daemon, not named by "
                    + "--warm-front: its clients learn of a change when the front's 10 s wait ends and they ask the "
                    + "daemon; \(common)"),
            Row(
                figure: "9",
                metric: "front stopped, a push, front started again → every one of \(size) on the new version",
                unit: "ms", value: restarted.all.nanoseconds / 1e6, p99: nil, baseline: baseline,
                baselineValue: direct.all.median / 1e6, ratio: restarted.all.nanoseconds / direct.all.median,
                cpuRatio: nil,
                target: "every follower ends on the new version", verdict: .pass,
                notes: "from nginx's start on the same port and cache; the median client after "
                    + "\(Format.number(restarted.half.nanoseconds / 1e6)) ms; failed updates, retried: "
                    + "\(restarted.failures); nginx stopped with SIGTERM (its fast shutdown drops every held wait) "
                    + "0.5 s after the fleet had applied the first spec, the push 0.5 s later, nginx started 1 s "
                    + "after the push; the daemon publishes the signal again every second until the front takes it; "
                    + "\(common)"),
        ]
    }

    /// The same fleet verifying every version with TUF (`trust: .tuf(root:)`), through a front
    /// of its own before a daemon of its own that signs (a folder as `livery signing init` makes
    /// it, `--signing`).
    private static func verifyingFleet(
        clients: Int, pushes: Int, folder: URL, tokenFile: URL, token: BearerToken, step: inout Int
    ) throws -> Measured {
        let signed = folder.appendingPathComponent("signed")
        let specs = signed.appendingPathComponent("Specs")
        try FileManager.default.createDirectory(at: specs, withIntermediateDirectories: true)
        try spec(step: step).write(to: specs.appendingPathComponent("card.yaml"))
        let signing = try SigningFolder.create(at: signed.appendingPathComponent("signing"), now: Date())
        let frontPort = try FreePort.find()
        let daemon = try DaemonProcess(
            directory: specs, tokenFile: tokenFile,
            arguments: ["--warm-front", "http://127.0.0.1:\(frontPort)", "--signing", signing.url.path])
        defer { daemon.stop() }
        let front = try FleetFront(
            root: signed.appendingPathComponent("nginx"), daemonPorts: [daemon.port], connections: 2 * clients + 1_024,
            port: frontPort)
        defer { front.stop() }
        let pusher = Pusher(url: try url("http://127.0.0.1:\(daemon.port)/v1/specs/card.yaml"), token: token)
        return try measure(
            clients: clients, pushes: pushes, following: try url("http://127.0.0.1:\(front.port)"),
            mode: .version(wait: wait), trust: .tuf(root: signing.rootFile(version: 1)),
            daemon: daemon, pusher: pusher, step: &step)
    }

    /// What the fleet saw of a front restarted under it: from the restart until every client
    /// (and the median client) had applied the push made while the front was down.
    struct Restarted {
        var all: Duration
        var half: Duration
        var failures: Int
    }

    /// A fleet follows `front`; the front stops, a push is made, and the front starts again on
    /// the same port with the same cache folder. Every client must end on the pushed version
    /// (within 120 s, or the figure fails).
    private static func frontRestarted(
        clients: Int, front: inout FleetFront, daemon: DaemonProcess, pusher: Pusher, step: inout Int
    ) throws -> Restarted {
        let applied = AppliedLog()
        let base = try url("http://127.0.0.1:\(front.port)")
        let tasks = try startFleet(clients: clients, applied: applied, label: "front restarted") { _ in
            let styler = CardStyler(targets: 1)
            return Task { await styler.follow(base, mode: .version(wait: wait), log: applied) }
        }
        defer { for task in tasks { task.cancel() } }
        Thread.sleep(forTimeInterval: 0.5)
        front.stop()
        Thread.sleep(forTimeInterval: 0.5)
        step += 1
        let body = spec(step: step)
        try Blocking.run { try await pusher.put(body) }
        Thread.sleep(forTimeInterval: 1)
        let start = ContinuousClock.now
        front = try front.restarted()
        guard applied.wait(for: 2 * clients, timeout: .seconds(120)) else {
            throw BenchError(
                "front restarted: \(applied.times.count - clients) of \(clients) clients applied the push made "
                    + "while it was down within 120 s of its restart (\(applied.failures) failed updates; the first: "
                    + "\(applied.firstFailure ?? "none"))")
        }
        let times = applied.times.suffix(clients).map { $0 - start }.sorted()
        let result = Restarted(
            all: times[times.count - 1], half: times[times.count / 2], failures: applied.failures)
        let following = tasks
        for task in following { task.cancel() }
        try Blocking.run { for task in following { await task.value } }
        return result
    }

    /// What one way of following measured: per push, the daemon's requests, the time until
    /// every client and until half of them had applied it; and the failed updates.
    struct Measured {
        var requests: [Double] = []
        var all = Samples(nanoseconds: [])
        var half = Samples(nanoseconds: [])
        var failures = 0
        var firstFailure: String?
        /// The push whose daemon requests were the most, and those requests by route.
        var busiestPush = ""
    }

    private static func measure(
        clients: Int, pushes: Int, following base: URL, mode: RemoteSpecSource.Mode,
        trust: RemoteSpecSource.Trust? = nil, daemon: DaemonProcess, pusher: Pusher, step: inout Int
    ) throws -> Measured {
        let applied = AppliedLog()
        let tasks = try startFleet(clients: clients, applied: applied, label: "\(mode)") { _ in
            let styler = CardStyler(targets: 1)
            return Task { await styler.follow(base, mode: mode, trust: trust, log: applied) }
        }
        defer { for task in tasks { task.cancel() } }
        var measured = Measured()
        for push in 1...pushes {
            Thread.sleep(forTimeInterval: 0.5)  // every client is waiting again
            let before = try daemon.requestsByRoute()
            step += 1
            let body = spec(step: step)
            let start = ContinuousClock.now
            try Blocking.run { try await pusher.put(body) }
            guard applied.wait(for: clients * (push + 1), timeout: .seconds(120)) else {
                throw BenchError(
                    "\(mode): push \(push) reached \(applied.times.count - clients * push) of \(clients) clients "
                        + "in 120 s (\(applied.failures) failed updates; the first: \(applied.firstFailure ?? "none"))")
            }
            let times = applied.times.suffix(clients).map { ($0 - start).nanoseconds }.sorted()
            measured.all.nanoseconds.append(times[times.count - 1])
            measured.half.nanoseconds.append(times[times.count / 2])
            // The push's own PUT is one request too.
            let after = try daemon.requestsByRoute()
            let requests = Double(after.values.reduce(0, +) - before.values.reduce(0, +) - 1)
            if requests > measured.requests.max() ?? -1 {
                measured.busiestPush = "push \(push): \(after.growth(since: before))"
            }
            measured.requests.append(requests)
        }
        measured.failures = applied.failures
        measured.firstFailure = applied.firstFailure
        let following = tasks
        for task in following { task.cancel() }
        try Blocking.run { for task in following { await task.value } }
        return measured
    }

    /// Starts `clients` followers (`follower(index)` makes each) in steps of 250, each step
    /// applied before the next starts: so that the accept queues never overflow and no client
    /// starts in a backoff. The start is not what is measured.
    static func startFleet(
        clients: Int, applied: AppliedLog, label: String, follower: (Int) -> Task<Void, Never>
    ) throws -> [Task<Void, Never>] {
        var tasks: [Task<Void, Never>] = []
        for first in stride(from: 0, to: clients, by: 250) {
            let started = min(first + 250, clients)
            for index in first..<started { tasks.append(follower(index)) }
            guard applied.wait(for: started, timeout: .seconds(60)) else {
                for task in tasks { task.cancel() }
                throw BenchError(
                    "\(label): \(applied.times.count) of \(started) clients had applied the first spec after 60 s "
                        + "(\(applied.failures) failed updates; the first: \(applied.firstFailure ?? "none"))")
            }
        }
        return tasks
    }

    private static func spec(step: Int) -> Data {
        Data("specs:\n  card:\n    - { type: CornerRadius, radius: \(step) }\n".utf8)
    }

    private static func url(_ text: String) throws -> URL {
        guard let url = URL(string: text) else { throw BenchError("bad URL \(text)") }
        return url
    }
}
