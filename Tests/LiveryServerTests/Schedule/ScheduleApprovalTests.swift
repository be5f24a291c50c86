import Foundation
import LiveryServer
import LiveryTestSupport
import LiveryTesting
import Testing

/// Planning a change on a protected environment: the plan is held as a change request (202)
/// and nothing is scheduled; approved before its first step's time it runs at that time under
/// its author's name; approved after it, it expires and never runs; an `admin` key's bypass
/// plans it at once, recorded in its message.
@Suite(.timeLimit(.minutes(2)), .inotifyShared)
struct ScheduleApprovalTests {
    static let accent = "#30D158"
    static let palette = ["palette.yaml": "variables:\n  colors:\n    accent: \"\(accent)\"\n"]

    /// A folder daemon on `clock` with its default environment protected by `approvals`.
    static func withProtected(
        approvals: Int, clock: ManualClock, _ body: (TestDaemon, ChangeRequestTests.Reviewers) async throws -> Void
    ) async throws {
        let state = try TemporarySpecFolder(prefix: "livery-schedule-approval-state")
        try await TestDaemon.with(configure: {
            $0.scheduleClock = clock; $0.stateDirectory = state.url
        }) { daemon in
            let protected = try await daemon.http.put("/v1/protection", #"{"approvals": \#(approvals)}"#)
            #expect(protected.status == 200, "\(protected.text)")
            try await body(daemon, try await ChangeRequestTests.Reviewers(daemon))
        }
    }

    /// A push of the green accent `in` seconds from now.
    static func push(in seconds: TimeInterval, _ clock: ManualClock) -> [String: Any] {
        [
            "action": "push", "at": ScheduleTime.text(of: clock.now.addingTimeInterval(seconds)),
            "message": "greener", "files": palette,
        ]
    }

    static func changes(_ daemon: TestDaemon) async throws -> [[String: Any]] {
        try await daemon.http.get("/v1/schedule").json()["changes"] as? [[String: Any]] ?? []
    }

    /// The newest entry of the history that wrote files (the schedule's own entries write none).
    static func newestHistory(_ daemon: TestDaemon) async throws -> [String: Any]? {
        try await ChangeRequestTests.newestPublish(daemon)
    }

    /// The entries of the history that say change 1 expired.
    static func expiries(_ daemon: TestDaemon) async throws -> [[String: Any]] {
        try await ChangeRequestTests.history(daemon, limit: 50).filter {
            ($0["message"] as? String)?.hasPrefix("change 1 expired") == true
        }
    }

    @Test("a plan is held until approved, then runs at its time under its author's name")
    func approvedBeforeItsTimeRunsAtItsTime() async throws {
        let clock = ManualClock()
        try await Self.withProtected(approvals: 1, clock: clock) { daemon, keys in
            let before = try await daemon.bundleETag()
            let held = try await ScheduleKeyTests.plan(daemon, Self.push(in: 600, clock), key: keys.alice)
            #expect(held.status == 202, "\(held.text)")
            #expect(held.header("Location") == "/v1/environments/default/changes/1")
            let change = try held.json()
            #expect(change["action"] as? String == "schedule" && change["state"] as? String == "pending")
            #expect((change["preview"] as? [String: Any])?["changed"] as? [String] == ["palette.yaml"], "\(held.text)")
            #expect(try await Self.changes(daemon).isEmpty, "nothing is scheduled before the approval")

            clock.advance(by: 300)
            let approved = try await ChangeRequestTests.review(daemon, 1, "approve", key: keys.bob)
            #expect(approved.status == 200, "\(approved.text)")
            #expect(try approved.json()["state"] as? String == "applied")
            let planned = try #require(try await Self.changes(daemon).first)
            #expect(planned["by"] as? String == "alice" && planned["state"] as? String == "planned")
            #expect(try await daemon.bundleETag() == before)

            clock.advance(by: 300)
            #expect(try await TestDaemon.eventually { try await daemon.bundleETag() != before })
            let newest = try await Self.newestHistory(daemon)
            #expect(newest?["by"] as? String == "alice")
            #expect(newest?["message"] as? String == "change 1: greener (approved by bob)")
        }
    }

    @Test("a plan not approved by its time expires: the late approval is refused and it never runs")
    func notApprovedByItsTimeNeverRuns() async throws {
        let clock = ManualClock()
        try await Self.withProtected(approvals: 2, clock: clock) { daemon, keys in
            let before = try await daemon.bundleETag()
            let held = try await ScheduleKeyTests.plan(daemon, Self.push(in: 60, clock), key: keys.alice)
            #expect(held.status == 202, "\(held.text)")
            let first = try await ChangeRequestTests.review(daemon, 1, "approve", key: keys.bob)
            #expect(try first.json()["state"] as? String == "pending", "\(first.text)")

            clock.advance(by: 61)
            let late = try await ChangeRequestTests.review(daemon, 1, "approve", key: keys.carol)
            #expect(late.status == 409, "\(late.text)")
            #expect(try ChangeRequestTests.kind(late) == "change-expired")
            #expect(try await daemon.http.get("/v1/changes/1").json()["state"] as? String == "expired")
            let again = try await ChangeRequestTests.review(daemon, 1, "reject", key: keys.carol)
            #expect(try ChangeRequestTests.kind(again) == "change-expired", "\(again.text)")

            clock.advance(by: 3600)
            #expect(try await Self.changes(daemon).isEmpty, "an expired plan is never scheduled")
            #expect(try await daemon.bundleETag() == before)
        }
    }

    @Test("a plan past its time reads expired at once, is kept so at the next write, once, and never runs")
    func pastItsTimeReadsExpiredAtOnce() async throws {
        let clock = ManualClock()
        try await Self.withProtected(approvals: 2, clock: clock) { daemon, keys in
            let before = try await daemon.bundleETag()
            let held = try await ScheduleKeyTests.plan(daemon, Self.push(in: 60, clock), key: keys.alice)
            #expect(held.status == 202, "\(held.text)")
            _ = try await ChangeRequestTests.review(daemon, 1, "approve", key: keys.bob)

            clock.advance(by: 60)
            #expect(try await daemon.http.get("/v1/changes/1").json()["state"] as? String == "pending", "on time")
            clock.advance(by: 1)
            let shown = try await daemon.http.get("/v1/changes/1").json()
            #expect(shown["state"] as? String == "expired" && shown["preview"] == nil, "\(shown)")
            let pending = try await daemon.http.get("/v1/changes?state=pending").json()["changes"] as? [Any]
            #expect(pending?.isEmpty == true)
            let expired = try await daemon.http.get("/v1/changes?state=expired").json()["changes"] as? [[String: Any]]
            #expect(expired?.compactMap { $0["id"] as? Int } == [1])
            #expect(try await Self.expiries(daemon).isEmpty, "a read writes nothing")

            // The next write keeps it expired, with its own history entry; later ones do not again.
            let next = try await daemon.http.delete("/v1/specs/card.yaml", token: .some(keys.alice))
            #expect(next.status == 202, "\(next.text)")
            _ = try await ChangeRequestTests.review(daemon, 2, "approve", key: keys.bob)
            let expiries = try await Self.expiries(daemon)
            #expect(expiries.map { $0["by"] as? String } == ["livery"], "\(expiries)")
            let due = ScheduleTime.text(of: clock.now.addingTimeInterval(-1))
            #expect(
                expiries.first?["message"] as? String
                    == "change 1 expired: its plan was due at \(due) with 1 of its 2 approvals; it never runs")
            let steps = try await ChangeRequestTests.steps(daemon, count: 3)
            #expect(
                steps.map { $0[1] } == [
                    "change 2 approved by bob (1 of 2)", "change 2 requested by alice: DELETE /v1/specs/card.yaml",
                    "change 1 expired: its plan was due at \(due) with 1 of its 2 approvals; it never runs",
                ])
            let ledger = try await daemon.http.get("/v1/changes").json()["changes"] as? [[String: Any]]
            #expect(ledger?.map { $0["state"] as? String } == ["pending", "expired"])

            let late = try await ChangeRequestTests.review(daemon, 1, "approve", key: keys.carol)
            #expect(try ChangeRequestTests.kind(late) == "change-expired", "\(late.text)")
            clock.advance(by: 3600)
            #expect(try await Self.changes(daemon).isEmpty, "an expired plan is never scheduled")
            #expect(try await daemon.bundleETag() == before)
        }
    }

    @Test("an admin key's bypass plans at once, and the history records it")
    func bypassPlansDirectly() async throws {
        let clock = ManualClock()
        try await Self.withProtected(approvals: 1, clock: clock) { daemon, keys in
            let bypass = [("Livery-Bypass-Approval", "true")]
            let body = String(
                decoding: try JSONSerialization.data(withJSONObject: Self.push(in: 60, clock)), as: UTF8.self)
            let refused = try await daemon.http.post(
                "/v1/schedule", json: body, token: .some(keys.alice), headers: bypass)
            #expect(refused.status == 403, "\(refused.text)")
            #expect(try ChangeRequestTests.kind(refused) == "bypass-refused")

            let planned = try await daemon.http.post("/v1/schedule", json: body, headers: bypass)
            #expect(planned.status == 201, "\(planned.text)")
            #expect(try planned.json()["message"] as? String == "greener (approval bypassed)")
            let listed = try await daemon.http.get("/v1/changes").json()["changes"] as? [Any]
            #expect(listed?.isEmpty == true, "no change request")

            clock.advance(by: 60)
            #expect(
                try await TestDaemon.eventually {
                    try await Self.newestHistory(daemon)?["message"] as? String == "greener (approval bypassed)"
                })
            #expect(try await Self.newestHistory(daemon)?["by"] as? String == "token-file")
        }
    }
}
