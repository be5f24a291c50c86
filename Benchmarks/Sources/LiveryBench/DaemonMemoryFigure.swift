import Foundation
import LiveryServer

/// Figure 6, the daemon's part: `livery serve` (the release executable, a separate process)
/// idle, then holding 2,000 waiting long-polls (`GET /v1/spec?wait=300` with the current ETag
/// in `If-None-Match`), read from its `VmRSS`; then one push, and a count of the clients it woke.
///
/// The clients are plain sockets of this process that send their request and wait, so they
/// cost the daemon only what a real client would. The idle reading is taken after the daemon
/// has answered a few requests (its event loops, allocator arenas and caches are warm).
enum DaemonMemoryFigure {
    static let figure = Figure(number: "6", title: "Memory: the daemon") { config in try run(config) }

    static func run(_ config: BenchConfig) throws -> [Row] {
        let clients = config.smoke ? 200 : 2_000
        try RawClients.raiseFileLimit(to: clients + 1_024)
        let folder = try TemporaryBenchFolder()
        let specs = folder.url.appendingPathComponent("Specs")
        try Data(ServeFigure.generatedSpec().utf8).write(to: specs.appendingPathComponent("ui.yaml"))
        let token = BearerToken.random()
        let tokenFile = folder.url.appendingPathComponent("token")
        try Data(token.text.utf8).write(to: tokenFile)

        let daemon = try DaemonProcess(directory: specs, tokenFile: tokenFile)
        defer { daemon.stop() }
        let base = "http://127.0.0.1:\(daemon.port)"
        var head = try Curl.head(base + "/v1/spec")
        for _ in 0..<20 { head = try Curl.head(base + "/v1/spec") }
        Thread.sleep(forTimeInterval: 0.5)
        let idle = try daemon.residentBytes()

        let request = "GET /v1/spec?wait=300 HTTP/1.1\r\nHost: 127.0.0.1\r\nIf-None-Match: \(head.etag)\r\n\r\n"
        let waiting = try RawClients(count: clients, port: daemon.port, request: request)
        defer { waiting.closeAll() }
        let deadline = ContinuousClock.now + .seconds(60)
        while try waitingClients(base) < clients {
            guard ContinuousClock.now < deadline else {
                throw BenchError("only \(try waitingClients(base)) of \(clients) clients are waiting after 60 s")
            }
            Thread.sleep(forTimeInterval: 0.1)
        }
        Thread.sleep(forTimeInterval: 1)
        let held = try daemon.residentBytes()
        let answeredEarly = waiting.readableNow()
        guard answeredEarly == 0 else {
            throw BenchError("\(answeredEarly) long-polls were answered before any change")
        }

        // One push: every waiting client must get the new bundle.
        let pushStart = ContinuousClock.now
        let body = folder.url.appendingPathComponent("push.yaml")
        try Data("specs:\n  pushed:\n    - { type: CornerRadius, radius: 3 }\n".utf8).write(to: body)
        _ = try Command.run(
            "/usr/bin/curl",
            [
                "-sf", "-o", "/dev/null", "-X", "PUT", "-H", "Authorization: \(token.authorizationHeader)",
                "--data-binary", "@\(body.path)", base + "/v1/specs/pushed.yaml",
            ])
        let codes = waiting.statusCodes(timeout: .seconds(30))
        let wakeMilliseconds = (ContinuousClock.now - pushStart).nanoseconds / 1e6
        let woken = codes[200, default: 0]
        let others = codes.filter { $0.key != 200 }.sorted { $0.key < $1.key }.map {
            "\($0.value) × \($0.key == 0 ? "closed" : String($0.key))"
        }

        let perClient = (held - idle) / Double(clients)
        let size = config.smoke ? "\(Format.count(clients)) (smoke; issue: 2,000)" : Format.count(clients)
        return [
            Row(
                figure: "6", metric: "daemon resident memory per waiting long-poll client, \(size) clients",
                unit: "kB/client", value: perClient / 1000, p99: nil,
                baseline: "the same daemon idle: \(mebibytes(idle)) VmRSS", baselineValue: nil, ratio: nil,
                cpuRatio: nil,
                target: "≤ 20 kB", verdict: perClient <= 20_000 ? .pass : .miss,
                notes: "livery serve (separate process) VmRSS \(mebibytes(idle)) idle → \(mebibytes(held)) with "
                    + "\(Format.count(clients)) GET /v1/spec?wait=300 held"),
            Row(
                figure: "6", metric: "long-polls woken by one push, \(size) waiting", unit: "clients",
                value: Double(woken), p99: nil, baseline: "clients waiting", baselineValue: Double(clients),
                ratio: Double(woken) / Double(clients), cpuRatio: nil, target: "all",
                verdict: woken == clients ? .pass : .miss,
                notes: "200 with the new bundle, all within \(Format.number(wakeMilliseconds)) ms of the PUT"
                    + (others.isEmpty ? "" : "; others: " + others.joined(separator: ", "))),
        ]
    }

    /// The daemon's `livery_waiting_clients` gauges, summed over its environments, from
    /// `GET /metrics`.
    private static func waitingClients(_ base: String) throws -> Int {
        let text = try Command.run("/usr/bin/curl", ["-sf", base + "/metrics"])
        let values = text.split(separator: "\n").filter { $0.hasPrefix("livery_waiting_clients{") }
            .compactMap { Double($0.split(separator: " ").last ?? "") }
        guard !values.isEmpty else { throw BenchError("no livery_waiting_clients in /metrics") }
        return Int(values.reduce(0, +))
    }

    private static func mebibytes(_ bytes: Double) -> String {
        Format.number(bytes / 1_048_576) + " MiB"
    }
}
