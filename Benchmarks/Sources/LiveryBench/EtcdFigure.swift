import AsyncHTTPClient
import Foundation
import LiveryRemote
import LiveryServer
import Logging

/// Figure 8: daemons sharing a spec set in etcd (one real member on loopback), beside a folder
/// daemon in the same run.
///
/// 1. A `PUT` on daemon A → the new traits applied on 100 targets in a client following daemon
///    B by server-sent events; baseline: the same pushes on one folder daemon that the client
///    follows itself (figure 2's path).
/// 2. 2,000 long-polls with the current ETag, half on each of two etcd daemons, and one push to
///    A: the time until every one has its 200; baseline: 2,000 on the folder daemon alone.
enum EtcdFigure {
    static let figure = Figure(number: "8", title: "Several daemons on etcd") { config in try run(config) }

    static let targetCount = 100

    static func run(_ config: BenchConfig) throws -> [Row] {
        let pushes = config.smoke ? 10 : 100
        let clients = config.smoke ? 200 : 2_000
        try RawClients.raiseFileLimit(to: clients + 1_024)
        let etcd = try EtcdMember()
        defer { etcd.stop() }
        let http = try EtcdStoreConfiguration.makeHTTPClient()
        defer { try? http.syncShutdown() }
        let token = BearerToken.random()
        let logger = Logger(label: "bench") { _ in SwiftLogNoOpLogHandler() }
        let folder = try TemporaryBenchFolder()
        let specs = folder.url.appendingPathComponent("Specs")
        try spec(step: 0).write(to: specs.appendingPathComponent("card.yaml"))
        let onEtcd = EtcdStoreConfiguration(endpoints: [etcd.clientURL], http: http)
        // The 2,000 clients all come from 127.0.0.1, as through a proxy.
        func configuration(etcd: EtcdStoreConfiguration?) -> DaemonConfiguration {
            var configuration = DaemonConfiguration(directory: specs, port: 0, etcd: etcd)
            configuration.connectionLimits = configuration.connectionLimits.perPeerAsGlobal
            return configuration
        }
        let daemons = [
            LiveryDaemon(configuration: configuration(etcd: nil), token: token, logger: logger),
            LiveryDaemon(configuration: configuration(etcd: onEtcd), token: token, logger: logger),
            LiveryDaemon(configuration: configuration(etcd: onEtcd), token: token, logger: logger),
        ]
        let serving = daemons.map { daemon in Task { try await daemon.run() } }
        defer { for task in serving { task.cancel() } }
        let ports = try daemons.map { daemon in try Blocking.run { try await daemon.listeningPort() } }
        let (folderPort, aPort, bPort) = (ports[0], ports[1], ports[2])
        try Blocking.run { try await pusher(aPort, token).put(spec(step: 0)) }

        var step = 0
        let baseline = try pushToApplied(
            push: folderPort, follow: folderPort, token: token, pushes: pushes, step: &step)
        let subject = try pushToApplied(push: aPort, follow: bPort, token: token, pushes: pushes, step: &step)
        let size = config.smoke ? "\(pushes) pushes (smoke)" : "\(pushes) pushes"
        var rows = [
            Row(
                figure: "8",
                metric:
                    "PUT on daemon A → traits applied on \(targetCount) targets in a client following daemon B (etcd), SSE, \(size)",
                unit: "ms", value: subject.median / 1e6, p99: subject.p99 / 1e6,
                baseline: "the same on one folder daemon", baselineValue: baseline.median / 1e6,
                ratio: subject.median / baseline.median, cpuRatio: nil, target: "median ≤ 10 ms",
                verdict: subject.median <= 10e6 ? .pass : .miss,
                notes:
                    "baseline p99 \(Format.number(baseline.p99 / 1e6)) ms; one etcd member on loopback, in-process daemons"
            )
        ]

        step += 1
        let folderWake = try wake(
            clients: clients, ports: [folderPort], daemons: [daemons[0]], pushTo: folderPort, token: token, step: step)
        step += 1
        let etcdWake = try wake(
            clients: clients, ports: [aPort, bPort], daemons: [daemons[1], daemons[2]], pushTo: aPort, token: token,
            step: step)
        let clientsText = config.smoke ? "\(clients) (smoke)" : "2,000"
        rows.append(
            Row(
                figure: "8",
                metric: "\(clientsText) long-polls over two etcd daemons, woken by one push to one of them",
                unit: "ms", value: etcdWake.milliseconds, p99: nil,
                baseline: "the same long-polls on one folder daemon", baselineValue: folderWake.milliseconds,
                ratio: etcdWake.milliseconds / folderWake.milliseconds, cpuRatio: nil, target: "all woken",
                verdict: etcdWake.woken == clients ? .pass : .miss,
                notes:
                    "\(etcdWake.woken) of \(clients) answered 200 (folder: \(folderWake.woken)); time from the push to the last answer"
            ))
        return rows
    }

    private static func pushToApplied(
        push: Int, follow: Int, token: BearerToken, pushes: Int, step: inout Int
    ) throws -> Samples {
        let applied = AppliedLog()
        let styler = CardStyler(targets: targetCount)
        let base = try url("http://127.0.0.1:\(follow)")
        let following = Task { await styler.follow(base, mode: .serverSentEvents, log: applied) }
        defer { following.cancel() }
        guard applied.wait(for: 1, timeout: .seconds(10)) else { throw BenchError("the first spec was never applied") }
        Thread.sleep(forTimeInterval: 0.05)
        let pusher = try pusher(push, token)
        var sentAt: [ContinuousClock.Instant] = []
        for index in 1...pushes {
            step += 1
            let body = spec(step: step)
            sentAt.append(ContinuousClock.now)
            try Blocking.run { try await pusher.put(body) }
            guard applied.wait(for: index + 1, timeout: .seconds(5)) else {
                throw BenchError("push \(index) was never applied")
            }
            Thread.sleep(forTimeInterval: 0.03)
        }
        return Samples(nanoseconds: zip(sentAt, applied.times.dropFirst()).map { ($1 - $0).nanoseconds })
    }

    private static func wake(
        clients: Int, ports: [Int], daemons: [LiveryDaemon], pushTo: Int, token: BearerToken, step: Int
    ) throws -> (milliseconds: Double, woken: Int) {
        guard let etag = daemons[0].hub.snapshot?.etag.description else { throw BenchError("no bundle to wait on") }
        let request = "GET /v1/spec?wait=300 HTTP/1.1\r\nHost: 127.0.0.1\r\nIf-None-Match: \(etag)\r\n\r\n"
        let share = clients / ports.count
        let waiting = try ports.map { try RawClients(count: share, port: $0, request: request) }
        defer { for group in waiting { group.closeAll() } }
        let deadline = ContinuousClock.now + .seconds(60)
        while daemons.map(\.hub.waitingClients).reduce(0, +) < share * ports.count {
            guard ContinuousClock.now < deadline else { throw BenchError("not every long-poll is waiting after 60 s") }
            Thread.sleep(forTimeInterval: 0.05)
        }
        let start = ContinuousClock.now
        try Blocking.run { try await pusher(pushTo, token).put(spec(step: step)) }
        let woken = waiting.map { $0.statusCodes(timeout: .seconds(30))[200, default: 0] }.reduce(0, +)
        return ((ContinuousClock.now - start).nanoseconds / 1e6, woken)
    }

    private static func pusher(_ port: Int, _ token: BearerToken) throws -> Pusher {
        Pusher(url: try url("http://127.0.0.1:\(port)/v1/specs/card.yaml"), token: token)
    }

    private static func spec(step: Int) -> Data {
        Data("specs:\n  card:\n    - { type: CornerRadius, radius: \(step) }\n".utf8)
    }

    private static func url(_ text: String) throws -> URL {
        guard let url = URL(string: text) else { throw BenchError("bad URL \(text)") }
        return url
    }
}
