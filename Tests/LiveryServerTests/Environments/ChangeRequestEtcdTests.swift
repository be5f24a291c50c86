import Foundation
import LiveryServer
import Testing

/// Change requests on two etcd daemons: the protection and the requests live under the
/// environment's prefix, so a change asked for on one daemon is approved on the other, applied
/// once, and a change whose base moved is stale on both.
@Suite(.timeLimit(.minutes(2))) struct ChangeRequestEtcdTests {
    @Test func aChangeAskedOnOneDaemonIsApprovedTwiceAcrossBothOrFoundStale() async throws {
        try await EtcdCluster.with { cluster in
            try await TestDaemon.onEtcd(cluster) { a in
                try await TestDaemon.onEtcd(cluster) { b in
                    let before = try await a.publishAndWait(TestDaemon.exampleFiles())
                    #expect(try await b.serves(before))
                    let alice = try await a.addKey("alice", scopes: ["push"], environments: ["default"])
                    let bob = try await a.addKey("bob", scopes: ["approve"], environments: ["default"])
                    let carol = try await a.addKey("carol", scopes: ["approve"], environments: ["default"])
                    // b knows the keys once it answers bob's with "no such change" rather than 401.
                    #expect(
                        try await TestDaemon.eventually {
                            try await ChangeRequestTests.review(b, 99, "approve", key: carol).status == 404
                        })
                    #expect(try await b.http.put("/v1/protection", #"{"approvals": 2}"#).status == 200)
                    #expect(
                        try await a.http.get("/v1/protection").json()["approvals"] as? Int == 2,
                        "the protection is in etcd, seen by a")

                    let held = try await a.http.put(
                        "/v1/specs/palette.yaml", ChangeRequestTests.newPalette, token: .some(alice))
                    #expect(held.status == 202, "\(held.text)")
                    let listed = try await b.http.get("/v1/changes").json()["changes"] as? [[String: Any]]
                    #expect(listed?.first?["state"] as? String == "pending", "b sees a's change request")

                    let first = try await ChangeRequestTests.review(a, 1, "approve", key: bob)
                    #expect(try first.json()["state"] as? String == "pending", "\(first.text)")
                    #expect(try await a.bundleETag() == before)
                    #expect(try await b.bundleETag() == before)
                    let second = try await ChangeRequestTests.review(b, 1, "approve", key: carol)
                    #expect(try second.json()["state"] as? String == "applied", "\(second.text)")
                    let applied = try await b.http.get("/v1/specs/palette.yaml").header("ETag")
                    #expect(
                        try await TestDaemon.eventually {
                            let file = try await a.http.get("/v1/specs/palette.yaml").header("ETag")
                            let bundle = try await a.bundleETag()
                            return file == applied && bundle != before
                        })

                    // A second change; the environment moves (an admin's bypass) before its approvals.
                    let next = try await b.http.delete("/v1/specs/card.yaml", token: .some(alice))
                    #expect(next.status == 202, "\(next.text)")
                    let moved = try await a.http.publish(
                        ["extra.yaml": "specs:\n  extra: []\n"], headers: [("Livery-Bypass-Approval", "true")])
                    #expect(moved.status == 200, "\(moved.text)")
                    _ = try await ChangeRequestTests.review(b, 2, "approve", key: bob)
                    let stale = try await ChangeRequestTests.review(a, 2, "approve", key: carol)
                    #expect(try stale.json()["state"] as? String == "stale", "\(stale.text)")
                    #expect(try await b.http.get("/v1/specs/card.yaml").status == 200, "nothing was deleted")
                    let history = try await a.http.get("/v1/history?limit=20").json()["entries"] as? [[String: Any]]
                    let messages = history?.compactMap { $0["message"] as? String } ?? []
                    #expect(messages.contains("change 2 approved by carol (2 of 2)"), "\(messages)")
                    #expect(messages.contains { $0.hasPrefix("change 2 stale") }, "\(messages)")
                    #expect(messages.contains("change 1: PUT /v1/specs/palette.yaml (approved by bob, carol)"))
                }
            }
        }
    }
}
