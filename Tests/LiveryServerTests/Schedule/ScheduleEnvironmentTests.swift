import Foundation
import LiveryServer
import LiveryTestSupport
import LiveryTesting
import Testing

/// A schedule belongs to an environment: its routes are the environment's, it is kept in that
/// environment's store, and its steps write there only.
@Suite(.timeLimit(.minutes(2)), .inotifyShared)
struct ScheduleEnvironmentTests {
    static let accent = "#30D158"

    @Test("a push scheduled on staging changes staging only")
    func pushOnStagingChangesStagingOnly() async throws {
        let root = try EnvironmentFolderTests.root()
        let clock = ManualClock()
        let state = try TemporarySpecFolder(prefix: "livery-schedule-state")
        try await EnvironmentFolderTests.withEnvironments(
            root,
            configure: {
                $0.scheduleClock = clock; $0.stateDirectory = state.url
            }
        ) { server in
            let production = try await server.http.get("/v1/environments/production/spec")
            let staging = try await server.http.get("/v1/environments/staging/spec")
            let body = try JSONSerialization.data(withJSONObject: [
                "action": "push", "at": ScheduleTime.text(of: clock.now.addingTimeInterval(600)),
                "files": ["palette.yaml": "variables:\n  colors:\n    accent: \"\(Self.accent)\"\n"],
            ])
            let planned = try await server.http.post(
                "/v1/environments/staging/schedule", json: String(decoding: body, as: UTF8.self))
            #expect(planned.status == 201, "\(planned.text)")
            let id = try #require(try planned.json()["id"] as? String)
            #expect(planned.header("Location") == "/v1/environments/staging/schedule/\(id)")
            #expect(try await Self.changes(server, "production").isEmpty, "production lists staging's change")
            clock.advance(by: 600)
            #expect(
                try await TestDaemon.eventually {
                    try await Self.changes(server, "staging").first?["state"] as? String == "done"
                })
            #expect(try EnvironmentFolderTests.read(root, "staging/palette.yaml").contains(Self.accent))
            #expect(try await server.http.get("/v1/environments/staging/spec").body != staging.body)
            #expect(!(try EnvironmentFolderTests.read(root, "production/palette.yaml").contains(Self.accent)))
            #expect(try await server.http.get("/v1/environments/production/spec").body == production.body)
            #expect(try await Self.changes(server, "production").isEmpty)
        }
    }

    /// The changes `GET /v1/environments/{environment}/schedule` lists.
    static func changes(_ server: TestDaemon, _ environment: String) async throws -> [[String: Any]] {
        let listing = try await server.http.get("/v1/environments/\(environment)/schedule")
        return try listing.json()["changes"] as? [[String: Any]] ?? []
    }
}
