import Foundation
import Livery
import LiveryServer
import LiveryTestSupport
import LiveryTesting
import Testing

/// A promotion planned for later (`POST …/schedule` `{"action": "promotion"}`) on a folder of
/// environments whose time is a clock the test moves: at its time the target's files become
/// exactly the source's as they were when it was planned; a source that does not load, a key
/// without `promote` and a rollout are refused when it is planned; on a protected target it is
/// a change request first.
@Suite(.timeLimit(.minutes(2)), .inotifyShared)
struct SchedulePromotionTests {
    static let green = "variables:\n  colors:\n    accent: \"#30D158\"\n"

    /// Production and staging (``EnvironmentFolderTests/root()``), staging with a file production
    /// lacks and production with one staging lacks, served on `clock`.
    static func withEnvironments(
        clock: ManualClock, staging: String = "specs:\n  title:\n    - { type: CornerRadius, radius: 2 }\n",
        _ body: (TestDaemon, TemporarySpecFolder) async throws -> Void
    ) async throws {
        let root = try EnvironmentFolderTests.root()
        try root.write("staging/title.yaml", staging)
        try root.write("production/old.yaml", "specs:\n  old: []\n")
        let state = try TemporarySpecFolder(prefix: "livery-schedule-promotion-state")
        try await EnvironmentFolderTests.withEnvironments(
            root,
            configure: {
                $0.scheduleClock = clock; $0.stateDirectory = state.url
            }
        ) { server in try await body(server, root) }
    }

    /// `POST /v1/environments/production/schedule` of `body` with `key` (the push token when absent).
    static func plan(_ server: TestDaemon, _ body: [String: Any], key: String?? = .none) async throws -> HTTP.Reply {
        let data = try JSONSerialization.data(withJSONObject: body)
        return try await server.http.post(
            "/v1/environments/production/schedule", json: String(decoding: data, as: UTF8.self), token: key)
    }

    /// A promotion from staging `in` seconds on `clock`, with `extra` fields.
    static func promotion(in seconds: TimeInterval, _ clock: ManualClock, _ extra: [String: Any] = [:]) -> [String: Any]
    {
        ["action": "promotion", "at": ScheduleTime.text(of: clock.now.addingTimeInterval(seconds)), "from": "staging"]
            .merging(extra) { $1 }
    }

    /// Every file of the environment `name` in `root`, its bytes as text.
    static func files(_ root: TemporarySpecFolder, _ name: String) throws -> [String: String] {
        try SpecSourceSet(directory: root.url.appending(path: name)).files.mapValues {
            String(decoding: $0.data, as: UTF8.self)
        }
    }

    @Test("at its time the target's files become exactly the source's as planned, deletions included")
    func promotionRunsWithTheFilesPlanned() async throws {
        let clock = ManualClock()
        try await Self.withEnvironments(clock: clock) { server, root in
            let planned = try Self.files(root, "staging")
            let stagingETag = try await server.http.get("/v1/environments/staging/spec").header("ETag")
            let revision = try #require(
                try await ChangeRequestTests.newestPublish(server, environment: "staging")?["revision"] as? Int)
            let reply = try await Self.plan(server, Self.promotion(in: 600, clock, ["message": "ship"]))
            #expect(reply.status == 201, "\(reply.text)")
            let change = try reply.json()
            let id = try #require(change["id"] as? String)
            #expect(reply.header("Location") == "/v1/environments/production/schedule/\(id)")
            #expect(change["kind"] as? String == "promotion" && change["from"] as? String == "staging")
            #expect(change["revision"] as? Int == revision)
            #expect(change["paths"] as? [String] == ["card.yaml", "palette.yaml", "title.yaml"])
            #expect(change["message"] as? String == "promoted from staging at revision \(revision): ship")
            #expect(change["files"] == nil, "the listing carries no file bytes")

            // Staging moves on after the plan: what runs is what was planned.
            let moved = try await server.http.post(
                "/v1/environments/staging/specs",
                json: try Self.json(["files": ["palette.yaml": Self.green, "late.yaml": "specs:\n  late: []\n"]]))
            #expect(moved.status == 200, "\(moved.text)")
            let before = try Self.files(root, "production")
            clock.advance(by: 599)
            try await Task.sleep(for: .milliseconds(300))
            #expect(try Self.files(root, "production") == before, "the promotion ran before its time")

            clock.advance(by: 1)
            #expect(try await TestDaemon.eventually { try Self.files(root, "production") == planned })
            #expect(
                try await TestDaemon.eventually {
                    try await ScheduleEnvironmentTests.changes(server, "production").first?["state"] as? String
                        == "done"
                })
            let newest = try #require(try await ChangeRequestTests.newestPublish(server, environment: "production"))
            #expect(newest["message"] as? String == "promoted from staging at revision \(revision): ship")
            #expect(newest["by"] as? String == "token-file")
            #expect(newest["paths"] as? [String] == ["old.yaml", "palette.yaml", "title.yaml"])
            #expect(
                try await TestDaemon.eventually {
                    try await server.http.get("/v1/environments/production/spec").header("ETag") == stagingETag
                })
        }
    }

    @Test("a promotion whose source does not load is refused when planned, as the promotion now is")
    func sourceThatDoesNotLoadIsRefused() async throws {
        let clock = ManualClock()
        try await Self.withEnvironments(clock: clock, staging: "specs:\n  title:\n    - { type: NoSuchTrait }\n") {
            server, _ in
            let now = try await server.http.post(
                "/v1/environments/production/promotions", json: #"{"from": "staging"}"#)
            #expect(now.status == 422, "\(now.text)")
            let planned = try await Self.plan(server, Self.promotion(in: 600, clock))
            #expect(planned.status == 422, "\(planned.text)")
            #expect(try Self.detail(planned) == Self.detail(now))
            #expect(try Self.detail(planned).contains("NoSuchTrait"), "\(planned.text)")
            #expect(try await ScheduleEnvironmentTests.changes(server, "production").isEmpty)
        }
    }

    @Test("a plan needs promote on the target; a rollout, files or a bad source are refused")
    func refusals() async throws {
        let clock = ManualClock()
        try await Self.withEnvironments(clock: clock) { server, _ in
            let pusher = try await server.addKey("pusher", scopes: ["push"], environments: ["production"])
            let elsewhere = try await server.addKey("elsewhere", scopes: ["promote"], environments: ["staging"])
            let promoter = try await server.addKey("promoter", scopes: ["promote"], environments: ["production"])
            let promotion = Self.promotion(in: 600, clock)

            for key in [pusher, elsewhere] {
                let refused = try await Self.plan(server, promotion, key: .some(key))
                #expect(refused.status == 403, "\(refused.text)")
                #expect(try ScheduleKeyTests.missing(refused) == ("promote", "production"))
            }
            let rollout = try await Self.plan(server, Self.promotion(in: 600, clock, ["rollout": "10%"]))
            #expect(rollout.status == 400 && rollout.text.contains("progressive"), "\(rollout.text)")
            let files = try await Self.plan(server, Self.promotion(in: 600, clock, ["files": ["a.yaml": "specs: {}"]]))
            #expect(files.status == 400 && files.text.contains(#"leave out \"files\""#), "\(files.text)")
            let fromOnPush = try await Self.plan(
                server, ["action": "push", "at": promotion["at"] ?? "", "from": "staging", "files": [:]])
            #expect(fromOnPush.status == 400, "\(fromOnPush.text)")
            let unknown = try await Self.plan(server, Self.promotion(in: 600, clock, ["from": "qa"]))
            #expect(unknown.status == 404, "\(unknown.text)")
            let itself = try await Self.plan(server, Self.promotion(in: 600, clock, ["from": "production"]))
            #expect(itself.status == 400, "\(itself.text)")
            let noRevision = try await Self.plan(server, Self.promotion(in: 600, clock, ["revision": 99]))
            #expect(noRevision.status == 404, "\(noRevision.text)")
            let past = try await Self.plan(server, Self.promotion(in: -60, clock))
            #expect(past.status == 400 && past.text.contains("past"), "\(past.text)")
            #expect(try await ScheduleEnvironmentTests.changes(server, "production").isEmpty)

            let planned = try await Self.plan(server, promotion, key: .some(promoter))
            #expect(planned.status == 201, "\(planned.text)")
            let id = try #require(try planned.json()["id"] as? String)
            let cancelByPusher = try await server.http.delete(
                "/v1/environments/production/schedule/\(id)", token: .some(pusher))
            #expect(cancelByPusher.status == 403, "\(cancelByPusher.text)")
            clock.advance(by: 600)
            #expect(
                try await TestDaemon.eventually {
                    try await ChangeRequestTests.newestPublish(server, environment: "production")?["by"] as? String
                        == "promoter"
                })
        }
    }

    @Test("on a protected target the plan is a change request, and runs at its time once approved")
    func protectedTargetWaitsForApproval() async throws {
        let clock = ManualClock()
        try await Self.withEnvironments(clock: clock) { server, root in
            let protected = try await server.http.put("/v1/environments/production/protection", #"{"approvals": 1}"#)
            #expect(protected.status == 200, "\(protected.text)")
            let alice = try await server.addKey("alice", scopes: ["promote"], environments: ["production"])
            let bob = try await server.addKey("bob", scopes: ["approve"], environments: ["production"])
            let planned = try Self.files(root, "staging")
            let before = try Self.files(root, "production")

            let held = try await Self.plan(
                server, Self.promotion(in: 600, clock, ["message": "ship"]), key: .some(alice))
            #expect(held.status == 202, "\(held.text)")
            #expect(held.header("Location") == "/v1/environments/production/changes/1")
            let change = try held.json()
            #expect(change["action"] as? String == "schedule")
            #expect((change["plan"] as? [String: Any])?["kind"] as? String == "promotion")
            let preview = change["preview"] as? [String: Any]
            #expect(preview?["added"] as? [String] == ["title.yaml"], "\(held.text)")
            #expect(preview?["removed"] as? [String] == ["old.yaml"], "\(held.text)")
            #expect(try await ScheduleEnvironmentTests.changes(server, "production").isEmpty)

            clock.advance(by: 300)
            let approved = try await ChangeRequestTests.review(
                server, 1, "approve", key: bob, environment: "production")
            #expect(try approved.json()["state"] as? String == "applied", "\(approved.text)")
            #expect(try Self.files(root, "production") == before, "an approval plans, it does not promote")

            clock.advance(by: 300)
            #expect(try await TestDaemon.eventually { try Self.files(root, "production") == planned })
            let newest = try #require(try await ChangeRequestTests.newestPublish(server, environment: "production"))
            #expect(newest["by"] as? String == "alice")
            let message = try #require(newest["message"] as? String)
            #expect(message.hasPrefix("change 1: promoted from staging at revision "), "\(message)")
            #expect(message.hasSuffix(": ship (approved by bob)"), "\(message)")
        }
    }

    static func json(_ object: [String: Any]) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
    }

    static func detail(_ reply: HTTP.Reply) throws -> String {
        try reply.json()["detail"] as? String ?? ""
    }
}
