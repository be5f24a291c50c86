import Foundation
import LiveryServer
import LiveryTesting
import Testing

/// A staged rollout on etcd: one key every daemon on the prefix follows, changed by transactions,
/// recorded in the history, kept across a restart.
@Suite(.timeLimit(.minutes(2))) struct EtcdRolloutTests {
    /// The rollout `daemon`'s version signal carries now, if any.
    private static func signalled(_ daemon: TestDaemon) async throws -> [String: Any]? {
        try await daemon.http.get("/v1/version").json()["rollout"] as? [String: Any]
    }

    @Test func twoDaemonsAgreeARestartKeepsItAndTheHistoryRecordsEachStep() async throws {
        try await EtcdCluster.with { cluster in
            let stable = try await TestDaemon.onEtcd(cluster) { a in
                try await TestDaemon.onEtcd(cluster) { b in
                    let stable = try await a.publishAndWait(TestDaemon.exampleFiles())
                    #expect(try await b.serves(stable))
                    var files = TestDaemon.exampleFiles(accent: "#FF9500")
                    files["card.yaml"] = nil
                    let body = try JSONSerialization.data(
                        withJSONObject: [
                            "files": files.mapValues { $0 as Any }, "rollout": "10%", "message": "orange accent",
                        ])
                    let started = try await a.http.post("/v1/specs", json: String(decoding: body, as: UTF8.self))
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
}
