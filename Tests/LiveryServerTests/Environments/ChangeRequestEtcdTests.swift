import Foundation
import LiveryEtcd
import LiveryServer
import LiveryTestSupport
import Testing

/// Change requests on two etcd daemons: the protection and the requests live under the
/// environment's prefix, so a change asked for on one daemon is approved on the other, applied
/// once, and a change whose base moved is stale on both; a plan past its time expires once; a
/// change a stopped daemon left with its approvals complete is applied once by the daemons that
/// start after it, however many start at the same time.
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

    @Test func everyStepIsAnEntryOfTheHistoryAsOnAFolder() async throws {
        try await EtcdCluster.with { cluster in
            try await TestDaemon.onEtcd(cluster) { server in
                try await server.publishAndWait(TestDaemon.exampleFiles())
                #expect(try await server.http.put("/v1/protection", #"{"approvals": 2}"#).status == 200)
                try await ChangeRequestTests.expectEveryStepInTheHistory(
                    server, try await ChangeRequestTests.Reviewers(server))
            }
        }
    }

    @Test func aPlanPastItsTimeReadsExpiredOnBothDaemonsAndIsKeptSoOnce() async throws {
        let clock = ManualClock()
        try await EtcdCluster.with { cluster in
            try await TestDaemon.onEtcd(cluster, configure: { $0.scheduleClock = clock }) { a in
                try await TestDaemon.onEtcd(cluster, configure: { $0.scheduleClock = clock }) { b in
                    try await a.publishAndWait(TestDaemon.exampleFiles())
                    #expect(try await a.http.put("/v1/protection", #"{"approvals": 2}"#).status == 200)
                    let keys = try await ChangeRequestTests.Reviewers(a)
                    #expect(
                        try await TestDaemon.eventually {
                            try await ChangeRequestTests.review(b, 99, "approve", key: keys.carol).status == 404
                        }, "b knows the keys")
                    let held = try await ScheduleKeyTests.plan(
                        a, ScheduleApprovalTests.push(in: 60, clock), key: keys.alice)
                    #expect(held.status == 202, "\(held.text)")
                    clock.advance(by: 61)
                    for daemon in [a, b] {
                        #expect(try await daemon.http.get("/v1/changes/1").json()["state"] as? String == "expired")
                    }
                    #expect(try await ScheduleApprovalTests.expiries(a).isEmpty, "kept at the next write")

                    // A write on each daemon: the expiry is kept by the first, once.
                    for daemon in [a, b] {
                        let next = try await daemon.http.delete("/v1/specs/card.yaml", token: .some(keys.alice))
                        #expect(next.status == 202, "\(next.text)")
                    }
                    #expect(try await ScheduleApprovalTests.expiries(b).map { $0["by"] as? String } == ["livery"])
                    let late = try await ChangeRequestTests.review(b, 1, "approve", key: keys.bob)
                    #expect(try ChangeRequestTests.kind(late) == "change-expired", "\(late.text)")
                }
            }
        }
    }

    @Test func twoDaemonsStartingAtOnceApplyAChangeItsDaemonStoppedBeforeApplyingOnce() async throws {
        try await EtcdCluster.with { cluster in
            try await TestDaemon.onEtcd(cluster) { server in
                try await server.publishAndWait(TestDaemon.exampleFiles())
                _ = try await ChangeRecoveryTests.askAndApproveOnce(server)
            }
            // The ledger as the daemon that kept carol's approval left it when it stopped.
            let client = cluster.client()
            let key = "/livery/" + "changes"
            let stored = try #require(try await client.range(key: key, rangeEnd: key + "\0").0.first)
            let stopped = try ChangeRecoveryTests.stoppedAfterTheLastApproval(
                stored.value, since: Date().addingTimeInterval(-600))
            #expect(
                try await client.transaction(
                    if: [.modRevision(key: key, equals: stored.modRevision)], then: [.put(key: key, value: stopped)]
                ).succeeded)

            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<2 {
                    group.addTask {
                        try await TestDaemon.onEtcd(cluster) { daemon in
                            // Reads take the change up too: many at once on each daemon, beside
                            // the start's, so that the daemons race for it.
                            try await withThrowingTaskGroup(of: Void.self) { reads in
                                for _ in 0..<8 { reads.addTask { _ = try await daemon.http.get("/v1/changes") } }
                                try await reads.waitForAll()
                            }
                            let applied = try await TestDaemon.eventually(timeout: .seconds(15)) {
                                try await daemon.http.get("/v1/specs/palette.yaml").text
                                    == ChangeRequestTests.newPalette
                            }
                            #expect(applied)
                        }
                    }
                }
                try await group.waitForAll()
            }
            try await TestDaemon.onEtcd(cluster) { server in
                let change = try await server.http.get("/v1/changes/1").json()
                #expect(change["state"] as? String == "applied", "\(change)")
                let messages = try await ChangeRequestTests.history(server, limit: 50).compactMap {
                    $0["message"] as? String
                }
                #expect(messages.filter { $0 == ChangeRecoveryTests.appliedMessage }.count == 1, "\(messages)")
                #expect(messages.filter { $0.hasPrefix("change 1 taken up again") }.count == 1, "\(messages)")
                #expect(messages.filter { $0.hasPrefix("change 1 applied as revision") }.count == 1, "\(messages)")
                #expect(!messages.contains { $0.hasPrefix("change 1 stale") }, "\(messages)")
            }
        }
    }
}
