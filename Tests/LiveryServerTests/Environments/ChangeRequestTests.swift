import Foundation
import LiveryServer
import LiveryTesting
import Testing

/// A protected environment on a folder daemon: each write is held as a change request (202)
/// that changes nothing until other keys approve it; a change whose base moved is stale, a
/// rejected one never applies, one that does not load is refused at once.
@Suite(.timeLimit(.minutes(2))) struct ChangeRequestTests {
    /// The keys of a review: `alice` pushes (and may approve others' changes), `bob` and `carol`
    /// approve, all on the default environment.
    struct Reviewers {
        var alice: String
        var bob: String
        var carol: String

        init(_ server: TestDaemon) async throws {
            alice = try await server.addKey("alice", scopes: ["push", "rollout", "approve"], environments: ["default"])
            bob = try await server.addKey("bob", scopes: ["approve"], environments: ["default"])
            carol = try await server.addKey("carol", scopes: ["approve"], environments: ["*"])
        }
    }

    static let newPalette = "variables:\n  colors:\n    accent: \"#30D158\"\n"

    /// A folder daemon with the example specs and a state folder for its keys, the default
    /// environment protected with `approvals`.
    static func withProtected<T>(
        approvals: Int, _ body: (TestDaemon, Reviewers) async throws -> T
    ) async throws -> T {
        let state = try TemporarySpecFolder(prefix: "livery-changes-state")
        return try await TestDaemon.with(configure: { $0.stateDirectory = state.url }) { server in
            let protected = try await server.http.put("/v1/protection", #"{"approvals": \#(approvals)}"#)
            #expect(protected.status == 200, "\(protected.text)")
            return try await body(server, try await Reviewers(server))
        }
    }

    /// `POST …/changes/{id}/approve` or `reject` with `key`.
    static func review(
        _ server: TestDaemon, _ id: Int, _ verb: String, key: String, message: String = "", environment: String? = nil
    ) async throws -> HTTP.Reply {
        let path = environment.map { "/v1/environments/\($0)/changes/\(id)/\(verb)" } ?? "/v1/changes/\(id)/\(verb)"
        return try await server.http.post(path, json: #"{"message": "\#(message)"}"#, token: .some(key))
    }

    static func kind(_ reply: HTTP.Reply) throws -> String? {
        (try reply.json()["type"] as? String)?.replacingOccurrences(of: "urn:livery:problem:", with: "")
    }

    /// The newest entries of the environment's history, newest first.
    static func history(
        _ server: TestDaemon, limit: Int = 20, environment: String? = nil
    ) async throws -> [[String: Any]] {
        let path = environment.map { "/v1/environments/\($0)/history" } ?? "/v1/history"
        return try await server.http.get("\(path)?limit=\(limit)").json()["entries"] as? [[String: Any]] ?? []
    }

    /// The newest entry of the history that wrote files: the entries of the change requests'
    /// steps, which write none, come after it.
    static func newestPublish(_ server: TestDaemon, environment: String? = nil) async throws -> [String: Any]? {
        try await history(server, environment: environment).first { ($0["paths"] as? [String])?.isEmpty == false }
    }

    /// The `by` and message of each entry of the newest `count` of the history, newest first.
    static func steps(_ server: TestDaemon, count: Int) async throws -> [[String]] {
        try await history(server, limit: count).map { [$0["by"] as? String ?? "-", $0["message"] as? String ?? "-"] }
    }

    /// Asks for a change that two approvals apply and one a reviewer rejects, on `server`
    /// protected with 2 approvals, then expects every step in the environment's history, with
    /// who, when and message: the same entries on a folder daemon as on etcd.
    static func expectEveryStepInTheHistory(_ server: TestDaemon, _ keys: Reviewers) async throws {
        let held = try await server.http.put("/v1/specs/palette.yaml", Self.newPalette, token: .some(keys.alice))
        #expect(held.status == 202, "\(held.text)")
        _ = try await review(server, 1, "approve", key: keys.bob, message: "fine")
        let applied = try await review(server, 1, "approve", key: keys.carol)
        #expect(try applied.json()["state"] as? String == "applied", "\(applied.text)")
        let revision = try #require(try applied.json()["revision"] as? Int)
        let deleted = try await server.http.delete("/v1/specs/card.yaml", token: .some(keys.alice))
        #expect(deleted.status == 202, "\(deleted.text)")
        let rejected = try await review(server, 2, "reject", key: keys.bob, message: "not this week")
        #expect(rejected.status == 200, "\(rejected.text)")

        #expect(
            try await steps(server, count: 8) == [
                ["bob", "change 2 rejected by bob: not this week"],
                ["alice", "change 2 requested by alice: DELETE /v1/specs/card.yaml"],
                ["carol", "change 1 applied as revision \(revision)"],
                ["alice", "change 1: PUT /v1/specs/palette.yaml (approved by bob, carol)"],
                ["carol", "change 1 approved by carol (2 of 2)"],
                ["bob", "change 1 approved by bob (1 of 2)"],
                ["alice", "change 1 requested by alice: PUT /v1/specs/palette.yaml"],
                ["token-file", "protected (2 approvals) by token-file"],
            ])
        let entries = try await history(server, limit: 8)
        #expect(entries.map { $0["paths"] as? [String] ?? ["-"] } == [[], [], [], ["palette.yaml"], [], [], [], []])
        #expect(
            entries.allSatisfy { ($0["time"] as? String).flatMap(ScheduleTime.date(parsing:)) != nil }, "\(entries)")
        let revisions = entries.compactMap { $0["revision"] as? Int }
        #expect(revisions == revisions.sorted(by: >) && Set(revisions).count == 8, "\(revisions)")
        #expect(revisions.dropFirst(3).first == revision)
    }

    @Test func aPushIsHeldUntilAnotherKeyApprovesItAndTheAuthorCannot() async throws {
        try await Self.withProtected(approvals: 1) { server, keys in
            let before = try #require(try await server.bundleETag())
            let held = try await server.http.put("/v1/specs/palette.yaml", Self.newPalette, token: .some(keys.alice))
            #expect(held.status == 202, "\(held.text)")
            #expect(held.header("Location") == "/v1/environments/default/changes/1")
            let change = try held.json()
            #expect(change["state"] as? String == "pending" && change["author"] as? String == "alice")
            #expect(change["base"] as? String == before)
            let preview = change["preview"] as? [String: Any]
            #expect(preview?["changed"] as? [String] == ["palette.yaml"], "\(held.text)")
            #expect((preview?["identifiers"] as? [[String: Any]])?.first?["identifier"] as? String == "card")

            // Nothing changed: not the store's file, not the bundle.
            #expect(try await server.http.get("/v1/specs/palette.yaml").text != Self.newPalette)
            #expect(try await server.bundleETag() == before)

            let own = try await Self.review(server, 1, "approve", key: keys.alice)
            #expect(own.status == 403, "\(own.text)")
            #expect(try Self.kind(own) == "own-change")
            #expect(try await server.http.get("/v1/changes/1").json()["state"] as? String == "pending")

            let approved = try await Self.review(server, 1, "approve", key: keys.bob, message: "looks right")
            #expect(approved.status == 200, "\(approved.text)")
            #expect(try approved.json()["state"] as? String == "applied")
            #expect(try await server.http.get("/v1/specs/palette.yaml").text == Self.newPalette)
            #expect(try await TestDaemon.eventually { try await server.bundleETag() != before })
            let newest = try await Self.newestPublish(server)
            #expect(newest?["by"] as? String == "alice")
            #expect(newest?["message"] as? String == "change 1: PUT /v1/specs/palette.yaml (approved by bob)")

            let again = try await Self.review(server, 1, "approve", key: keys.carol)
            #expect(again.status == 409, "\(again.text)")
            #expect(try Self.kind(again) == "change-closed")
        }
    }

    @Test func everyStepIsAnEntryOfTheHistoryWithWhoWhenAndMessage() async throws {
        try await Self.withProtected(approvals: 2) { server, keys in
            try await Self.expectEveryStepInTheHistory(server, keys)
        }
    }

    @Test func twoApprovalsWhenTwoAreRequired() async throws {
        try await Self.withProtected(approvals: 2) { server, keys in
            let before = try await server.bundleETag()
            let body =
                ##"{"files": {"palette.yaml": "variables:\n  colors:\n    accent: \"#30D158\"\n"}, "message": "greener"}"##
            let held = try await server.http.post("/v1/specs", json: body, token: .some(keys.alice))
            #expect(held.status == 202, "\(held.text)")

            let first = try await Self.review(server, 1, "approve", key: keys.bob)
            #expect(first.status == 200, "\(first.text)")
            #expect(try first.json()["state"] as? String == "pending")
            #expect(try await server.http.get("/v1/specs/palette.yaml").text != Self.newPalette)
            let twice = try await Self.review(server, 1, "approve", key: keys.bob)
            #expect(twice.status == 409, "\(twice.text)")
            #expect(try Self.kind(twice) == "already-approved")
            #expect(try await server.bundleETag() == before)

            let second = try await Self.review(server, 1, "approve", key: keys.carol)
            #expect(second.status == 200, "\(second.text)")
            #expect(try second.json()["state"] as? String == "applied")
            #expect(try await server.http.get("/v1/specs/palette.yaml").text == Self.newPalette)
            let approvals = try second.json()["approvals"] as? [[String: Any]]
            #expect(approvals?.compactMap { $0["by"] as? String } == ["bob", "carol"])
        }
    }

    @Test func aChangeWhoseBaseMovedIsStaleAndWritesNothingAndAnAdminBypassIsRecorded() async throws {
        try await Self.withProtected(approvals: 1) { server, keys in
            let held = try await server.http.put("/v1/specs/palette.yaml", Self.newPalette, token: .some(keys.alice))
            #expect(held.status == 202, "\(held.text)")

            // Only an admin key may bypass; the token-file key is one.
            let bypass = [("Livery-Bypass-Approval", "true")]
            let card = "include: [palette.yaml]\nspecs:\n  card:\n    - { type: CornerRadius, radius: 12 }\n"
            let refused = try await server.http.put(
                "/v1/specs/card.yaml", card, token: .some(keys.alice), headers: bypass)
            #expect(refused.status == 403, "\(refused.text)")
            #expect(try Self.kind(refused) == "bypass-refused")
            let bypassed = try await server.http.put("/v1/specs/card.yaml", card, headers: bypass)
            #expect(bypassed.status == 200, "\(bypassed.text)")
            let newest = try await Self.newestPublish(server)
            #expect(newest?["message"] as? String == "PUT /v1/specs/card.yaml (approval bypassed)")
            #expect(newest?["by"] as? String == "token-file")

            let approved = try await Self.review(server, 1, "approve", key: keys.bob)
            #expect(approved.status == 200, "\(approved.text)")
            let change = try approved.json()
            #expect(change["state"] as? String == "stale")
            let since = change["changedSince"] as? [[String: Any]]
            #expect(since?.compactMap { $0["paths"] as? [String] } == [["card.yaml"]], "\(approved.text)")
            #expect(try await server.http.get("/v1/specs/palette.yaml").text != Self.newPalette)
            #expect(try await server.http.get("/v1/specs/card.yaml").text == card)
        }
    }

    @Test func aRejectedChangeNeverApplies() async throws {
        try await Self.withProtected(approvals: 1) { server, keys in
            let before = try await server.bundleETag()
            let held = try await server.http.delete("/v1/specs/card.yaml", token: .some(keys.alice))
            #expect(held.status == 202, "\(held.text)")
            let rejected = try await Self.review(server, 1, "reject", key: keys.bob, message: "not this week")
            #expect(rejected.status == 200, "\(rejected.text)")
            let rejection = try rejected.json()["rejection"] as? [String: Any]
            #expect(rejection?["by"] as? String == "bob" && rejection?["message"] as? String == "not this week")
            for key in [keys.bob, keys.carol] {
                let late = try await Self.review(server, 1, "approve", key: key)
                #expect(late.status == 409, "\(late.text)")
                #expect(try Self.kind(late) == "change-closed")
            }
            #expect(try await server.http.get("/v1/specs/card.yaml").status == 200)
            #expect(try await server.bundleETag() == before)
            let listed = try await server.http.get("/v1/changes?state=rejected").json()["changes"] as? [[String: Any]]
            #expect(listed?.compactMap { $0["id"] as? Int } == [1])
        }
    }

    @Test func anUnloadableChangeIsRefusedAtOnceNeverHeld() async throws {
        try await Self.withProtected(approvals: 1) { server, keys in
            let broken = try await server.http.put(
                "/v1/specs/palette.yaml", "variables: [", token: .some(keys.alice))
            #expect(broken.status == 422, "\(broken.text)")
            let rollout = try await server.http.put(
                "/v1/specs/palette.yaml?rollout=10%25", "variables: [", token: .some(keys.alice))
            #expect(rollout.status == 422, "\(rollout.text)")
            let listed = try await server.http.get("/v1/changes").json()
            #expect((listed["changes"] as? [Any])?.isEmpty == true, "\(listed)")
            #expect((listed["protection"] as? [String: Any])?["approvals"] as? Int == 1)
        }
    }

    @Test func aRolloutsStartAndCompletionAreChangeRequestsToo() async throws {
        try await Self.withProtected(approvals: 1) { server, keys in
            let before = try #require(try await server.bundleETag())
            let start = try await server.http.put(
                "/v1/specs/palette.yaml?rollout=10%25", Self.newPalette, token: .some(keys.alice))
            #expect(start.status == 202, "\(start.text)")
            #expect(try start.json()["action"] as? String == "rollout")
            #expect(try await server.http.get("/v1/rollout").status == 404, "no rollout before the approval")
            let started = try await Self.review(server, 1, "approve", key: keys.bob)
            #expect(try started.json()["state"] as? String == "applied", "\(started.text)")
            #expect(try await server.http.get("/v1/rollout").json()["state"] as? String == "running")

            let complete = try await server.http.post(
                "/v1/rollout", json: #"{"action": "complete", "message": "all good"}"#, token: .some(keys.alice))
            #expect(complete.status == 202, "\(complete.text)")
            #expect(try complete.json()["action"] as? String == "completion")
            #expect(try await server.http.get("/v1/rollout").json()["state"] as? String == "running")
            #expect(try await server.bundleETag() == before)
            let completed = try await Self.review(server, 2, "approve", key: keys.carol)
            #expect(try completed.json()["state"] as? String == "applied", "\(completed.text)")
            #expect(try await server.http.get("/v1/rollout").json()["state"] as? String == "completed")
            #expect(try await server.http.get("/v1/specs/palette.yaml").text == Self.newPalette)
        }
    }

    @Test func aPromotionIntoAProtectedEnvironmentWaitsForItsApproval() async throws {
        let root = try EnvironmentFolderTests.root()
        let state = try TemporarySpecFolder(prefix: "livery-changes-state")
        try await EnvironmentFolderTests.withEnvironments(root, configure: { $0.stateDirectory = state.url }) {
            server in
            let created = try await server.http.post(
                "/v1/environments", json: #"{"name": "live", "from": "production", "approvals": 1}"#)
            #expect(created.status == 201, "\(created.text)")
            #expect(try await server.http.get("/v1/environments/live/protection").json()["approvals"] as? Int == 1)
            let promoter = try await server.addKey("ci", scopes: ["promote"], environments: ["live"])
            let reviewer = try await server.addKey("lead", scopes: ["approve"], environments: ["live"])
            let staging = try #require(try await server.http.get("/v1/environments/staging/spec").header("ETag"))
            let live = try await server.http.get("/v1/environments/live/spec").header("ETag")

            let held = try await server.http.post(
                "/v1/environments/live/promotions", json: #"{"from": "staging", "message": "ship it"}"#,
                token: .some(promoter))
            #expect(held.status == 202, "\(held.text)")
            #expect(held.header("Location") == "/v1/environments/live/changes/1")
            #expect(try (held.json()["preview"] as? [String: Any])?["changed"] as? [String] == ["palette.yaml"])
            #expect(try await server.http.get("/v1/environments/live/spec").header("ETag") == live)

            let approved = try await Self.review(server, 1, "approve", key: reviewer, environment: "live")
            #expect(try approved.json()["state"] as? String == "applied", "\(approved.text)")
            #expect(
                try await TestDaemon.eventually {
                    try await server.http.get("/v1/environments/live/spec").header("ETag") == staging
                })
            let newest = try await Self.newestPublish(server, environment: "live")
            #expect((newest?["message"] as? String)?.hasPrefix("change 1: promoted from staging at revision ") == true)
            #expect((newest?["message"] as? String)?.hasSuffix(": ship it (approved by lead)") == true)
        }
    }
}
