import Foundation
import LiveryServer
import LiveryTestSupport

/// What the schedule tests of a daemon share: planning a change and reading the schedule.
extension TestDaemon {
    /// `POST /v1/schedule` of `body` (a JSON object).
    func schedule(_ body: [String: Any], headers: [(String, String)] = []) async throws -> HTTP.Reply {
        let data = try JSONSerialization.data(withJSONObject: body)
        return try await http.post("/v1/schedule", json: String(decoding: data, as: UTF8.self), headers: headers)
    }

    /// A push of the example with `accent` at `at`, with `message`; its id.
    func schedulePush(accent: String, at: Date, message: String = "") async throws -> String {
        let reply = try await schedule([
            "action": "push", "at": ScheduleTime.text(of: at), "message": message,
            "files": ["palette.yaml": "variables:\n  colors:\n    accent: \"\(accent)\"\n"],
        ])
        guard reply.status == 201, let id = try reply.json()["id"] as? String else {
            throw HTTPTestError("scheduling answered \(reply.status): \(reply.text)")
        }
        return id
    }

    /// The change `id` as `GET /v1/schedule` lists it.
    func scheduled(_ id: String) async throws -> [String: Any]? {
        let changes = try await http.get("/v1/schedule").json()["changes"] as? [[String: Any]] ?? []
        return changes.first { $0["id"] as? String == id }
    }

    /// The state of the change `id` and of each of its steps, such as `done` and `[done]`.
    func scheduleState(_ id: String) async throws -> (String?, [String]) {
        let change = try await scheduled(id)
        let steps = change?["steps"] as? [[String: Any]] ?? []
        return (change?["state"] as? String, steps.compactMap { $0["state"] as? String })
    }
}
