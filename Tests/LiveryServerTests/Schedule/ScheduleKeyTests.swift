import Foundation
import LiveryServer
import LiveryTestSupport
import LiveryTesting
import Testing

/// Who may plan and cancel scheduled changes: a key with the scopes of the writes planned, on
/// the environment, checked when the change is planned; its writes are then authored by that key.
@Suite(.timeLimit(.minutes(2)), .inotifyShared)
struct ScheduleKeyTests {
    static let palette = ["palette.yaml": "variables:\n  colors:\n    accent: \"#FF9500\"\n"]

    /// `POST /v1/schedule` of `body` with `key` (`nil`: none).
    static func plan(_ daemon: TestDaemon, _ body: [String: Any], key: String?) async throws -> HTTP.Reply {
        let data = try JSONSerialization.data(withJSONObject: body)
        return try await daemon.http.post(
            "/v1/schedule", json: String(decoding: data, as: UTF8.self), token: .some(key))
    }

    /// The scope and environment a 403 names.
    static func missing(_ reply: HTTP.Reply) throws -> (String?, String?) {
        let problem = try JSONDecoder().decode(Problem.self, from: reply.body)
        #expect(problem.kind == .missingScope, "\(reply.text)")
        return (problem.scope, problem.environment)
    }

    @Test("planning needs the scopes of the writes planned, and they are authored by the planning key")
    func planningNeedsTheWritesScopes() async throws {
        let clock = ManualClock()
        let state = try TemporarySpecFolder(prefix: "livery-schedule-keys-state")
        try await TestDaemon.with(configure: {
            $0.scheduleClock = clock; $0.stateDirectory = state.url
        }) { daemon in
            let pusher = try await daemon.addKey("pusher", scopes: ["push"], environments: ["default"])
            let roller = try await daemon.addKey("roller", scopes: ["rollout"], environments: ["default"])
            let elsewhere = try await daemon.addKey("elsewhere", scopes: ["push"], environments: ["staging"])
            let at = ScheduleTime.text(of: clock.now.addingTimeInterval(60))
            let push: [String: Any] = ["action": "push", "at": at, "files": Self.palette]
            let share: [String: Any] = ["action": "rollout", "at": at, "percent": 25]
            let progressive: [String: Any] = [
                "action": "progressive", "at": at, "percents": ["10%", "100%"], "every": "1h", "files": Self.palette,
            ]

            #expect(try await Self.plan(daemon, push, key: nil).status == 401)
            let wrongScope = try await Self.plan(daemon, push, key: roller)
            #expect(wrongScope.status == 403, "\(wrongScope.text)")
            #expect(try Self.missing(wrongScope) == ("push", "default"))
            let wrongPlace = try await Self.plan(daemon, push, key: elsewhere)
            #expect(wrongPlace.status == 403, "\(wrongPlace.text)")
            #expect(try Self.missing(wrongPlace) == ("push", "default"))
            let shareByPusher = try await Self.plan(daemon, share, key: pusher)
            #expect(shareByPusher.status == 403, "\(shareByPusher.text)")
            #expect(try Self.missing(shareByPusher) == ("rollout", "default"))
            let progressiveByRoller = try await Self.plan(daemon, progressive, key: roller)
            #expect(progressiveByRoller.status == 403, "\(progressiveByRoller.text)")
            #expect(try Self.missing(progressiveByRoller) == ("push", "default"))
            let progressiveByPusher = try await Self.plan(daemon, progressive, key: pusher)
            #expect(progressiveByPusher.status == 403, "\(progressiveByPusher.text)")
            #expect(try Self.missing(progressiveByPusher) == ("rollout", "default"))

            let planned = try await Self.plan(daemon, push, key: pusher)
            #expect(planned.status == 201, "\(planned.text)")
            let id = try #require(try planned.json()["id"] as? String)
            #expect(try await daemon.scheduled(id)?["by"] as? String == "pusher")
            // Cancelling needs what planning needed.
            let cancelByRoller = try await daemon.http.delete("/v1/schedule/\(id)", token: .some(roller))
            #expect(cancelByRoller.status == 403, "\(cancelByRoller.text)")
            #expect(try Self.missing(cancelByRoller) == ("push", "default"))

            clock.advance(by: 60)
            #expect(try await TestDaemon.eventually { try await daemon.scheduleState(id) == ("done", ["done"]) })
            let newest = try await ChangeRequestTests.newestPublish(daemon)
            #expect(newest?["by"] as? String == "pusher", "\(newest ?? [:])")

            let later = try await Self.plan(
                daemon,
                [
                    "action": "push", "at": ScheduleTime.text(of: clock.now.addingTimeInterval(60)),
                    "files": Self.palette,
                ], key: pusher)
            let laterID = try #require(try later.json()["id"] as? String)
            #expect(try await daemon.http.delete("/v1/schedule/\(laterID)", token: .some(pusher)).status == 200)
        }
    }
}
