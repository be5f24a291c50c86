import Foundation
import LiveryServer
import LiveryTestSupport
import LiveryTesting
import Testing

/// A staged rollout on etcd: one key every daemon on the prefix follows, changed by transactions,
/// recorded in the history, kept across a restart.
@Suite(.heavy, .timeLimit(.minutes(5))) struct EtcdRolloutTests {
    /// The rollout `daemon`'s version signal carries now, if any.
    static func signalled(_ daemon: TestDaemon) async throws -> [String: Any]? {
        try await daemon.http.get("/v1/version").json()["rollout"] as? [String: Any]
    }

    /// Starts a rollout on `daemon` of the example with an orange accent (its palette alone).
    static func startRollout(
        on daemon: TestDaemon, percent: String, message: String
    ) async throws
        -> HTTP.Reply
    {
        var files = TestDaemon.exampleFiles(accent: "#FF9500")
        files["card.yaml"] = nil
        let body = try JSONSerialization.data(
            withJSONObject: ["files": files.mapValues { $0 as Any }, "rollout": percent, "message": message])
        return try await daemon.http.post("/v1/specs", json: String(decoding: body, as: UTF8.self))
    }

    @Test func twoDaemonsAgreeARestartKeepsItAndTheHistoryRecordsEachStep() async throws {
        try await EtcdCluster.with { cluster in
            let stable = try await TestDaemon.onEtcd(cluster) { a in
                try await TestDaemon.onEtcd(cluster) { b in
                    let stable = try await a.publishAndWait(TestDaemon.exampleFiles())
                    #expect(try await b.serves(stable))
                    let started = try await Self.startRollout(on: a, percent: "10%", message: "orange accent")
                    #expect(started.status == 200, "\(started.text)")
                    let id = try #require(try started.json()["id"] as? String)
                    let candidate = try #require(try started.json()["candidate"] as? String)

                    // b learns it from etcd: same id, share, candidate; it serves the candidate.
                    #expect(try await TestDaemon.eventually { try await Self.signalled(b)?["id"] as? String == id })
                    #expect(try await Self.signalled(b)?["candidate"] as? String == candidate)
                    let fetched = try await b.http.get("/v1/spec/\(EntityTag.opaque(of: candidate))")
                    #expect(fetched.status == 200)
                    // A plain write on b is refused while it runs; b widens it, and a follows.
                    let plain = try await b.http.publish(TestDaemon.exampleFiles(accent: "#000000"))
                    #expect(plain.status == 409, "\(plain.text)")
                    let widened = try await b.http.post(
                        "/v1/rollout", json: #"{"action": "set", "percent": 40}"#, headers: [("If-Match", id)])
                    #expect(widened.status == 200, "\(widened.text)")
                    #expect(
                        try await TestDaemon.eventually { try await Self.signalled(a)?["percent"] as? Double == 40 })
                    // A change from a daemon that missed the latest one loses the race.
                    let stale = try await a.http.post(
                        "/v1/rollout", json: #"{"action": "set", "percent": 50}"#, headers: [("If-Match", id)])
                    #expect(stale.status == 200 || stale.status == 409, "\(stale.text)")
                    return stable
                }
            }
            // A new daemon (a restart) finds the rollout in etcd; it completes it.
            try await TestDaemon.onEtcd(cluster) { c in
                #expect(
                    try await TestDaemon.eventually { try await Self.signalled(c)?["state"] as? String == "running" })
                let rollout = try await c.http.get("/v1/rollout").json()
                #expect(rollout["message"] as? String == "orange accent")
                let completed = try await c.http.post("/v1/rollout", json: #"{"action": "complete"}"#)
                #expect(completed.status == 200, "\(completed.text)")
                let candidate = try #require(rollout["candidate"] as? String)
                #expect(try await c.serves(candidate))
                #expect(candidate != stable)
                #expect(try await TestDaemon.eventually { try await Self.signalled(c) == nil })
                let history = try await c.http.get("/v1/history").json()["entries"] as? [[String: Any]] ?? []
                let messages = history.compactMap { $0["message"] as? String }
                let id = rollout["id"] as? String ?? ""
                for step in ["started at 10%", "set to 40%", "completed"] {
                    #expect(messages.contains { $0.contains("rollout \(id) \(step)") }, "\(messages)")
                }
            }
        }
    }

    /// The rollout as `daemon`'s `GET /v1/rollout` shows it.
    private static func rollout(_ daemon: TestDaemon) async throws -> [String: Any] {
        try await daemon.http.get("/v1/rollout").json()
    }

    /// How many clients `daemon` counts as refusing the candidate.
    private static func refused(_ daemon: TestDaemon) async throws -> Int? {
        try await (rollout(daemon)["cohort"] as? [String: Any])?["refused"] as? Int
    }

    /// Sends one request to `daemon` whose `Livery-Client` says `instance` refused `candidate`.
    private static func refuse(_ candidate: String, as instance: String, to daemon: TestDaemon) async throws {
        let header = LiveryClientHeader(
            identity: try ClientIdentity(name: "shop", instance: instance), refused: candidate)
        let reply = try await daemon.http.get("/v1/spec", headers: [("Livery-Client", header.fieldValue)])
        #expect(reply.status == 200)
    }

    /// Three daemons on one prefix, each aborting at two refusals.
    private static func threeDaemons(
        _ cluster: EtcdCluster, _ body: (TestDaemon, TestDaemon, TestDaemon) async throws -> Void
    ) async throws {
        let twice: (inout DaemonConfiguration) -> Void = { $0.abortWhen = .count(2) }
        try await TestDaemon.onEtcd(cluster, configure: twice) { a in
            try await TestDaemon.onEtcd(cluster, configure: twice) { b in
                try await TestDaemon.onEtcd(cluster, configure: twice) { c in try await body(a, b, c) }
            }
        }
    }

    @Test func refusalsAreCountedInEtcdSoOneToEachOfTwoDaemonsReachesAThresholdOfTwo() async throws {
        try await EtcdCluster.with { cluster in
            try await Self.threeDaemons(cluster) { a, b, c in
                let stable = try await a.publishAndWait(TestDaemon.exampleFiles())
                let started = try await Self.startRollout(on: a, percent: "50%", message: "orange accent")
                #expect(started.status == 200, "\(started.text)")
                let id = try #require(try started.json()["id"] as? String)
                let candidate = try #require(try started.json()["candidate"] as? String)
                let rollout = Rollout(id: id, basisPoints: 5000, stable: stable, candidate: candidate)
                let cohort = (0..<100).map { "host-\($0)" }.filter { rollout.includes(instance: $0) }
                for daemon in [b, c] {
                    #expect(
                        try await TestDaemon.eventually { try await Self.signalled(daemon)?["id"] as? String == id })
                }

                // One client refuses on a, twice, and once on c: every daemon counts it, once.
                try await Self.refuse(candidate, as: cohort[0], to: a)
                try await Self.refuse(candidate, as: cohort[0], to: a)
                try await Self.refuse(candidate, as: cohort[0], to: c)
                for daemon in [a, b, c] {
                    #expect(try await TestDaemon.eventually { try await Self.refused(daemon) == 1 })
                }
                try await Task.sleep(for: .milliseconds(300))
                for daemon in [a, b, c] {
                    #expect(try await Self.refused(daemon) == 1)
                    #expect(try await Self.rollout(daemon)["state"] as? String == "running")
                }

                // Another client refuses on b: two in all, so the rollout aborts everywhere.
                try await Self.refuse(candidate, as: cohort[1], to: b)
                for daemon in [a, b, c] {
                    #expect(
                        try await TestDaemon.eventually {
                            try await Self.rollout(daemon)["state"] as? String == "aborted"
                        })
                    let status = try await Self.rollout(daemon)
                    #expect((status["abortReason"] as? String ?? "").contains("2 of"), "\(status)")
                    #expect(try await Self.refused(daemon) == 2)
                    #expect(try await Self.signalled(daemon)?["state"] as? String == "aborted")
                }
                // One daemon aborted it; the others followed its change.
                let aborts = [a, b, c].filter {
                    $0.daemon.metrics.render().contains(
                        #"livery_rollout_aborts_total{environment="default",by="daemon"} 1"#)
                }
                #expect(aborts.count == 1)
            }
        }
    }
}
