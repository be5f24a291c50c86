import Foundation
import LiveryServer
import LiveryTesting
import Testing

/// A test daemon's keys: each made with its `admin` token-file key through `POST /v1/keys`.
extension TestDaemon {
    /// Adds a key named `name` with `scopes` on `environments`; the key.
    func addKey(_ name: String, scopes: [String], environments: [String]) async throws -> String {
        let body = try JSONSerialization.data(
            withJSONObject: ["name": name, "scopes": scopes, "environments": environments])
        let reply = try await http.post("/v1/keys", json: String(decoding: body, as: UTF8.self))
        guard reply.status == 201, let key = try reply.json()["key"] as? String else {
            throw HTTPTestError("POST /v1/keys \(name): \(reply.status) \(reply.text)")
        }
        return key
    }

    /// A request target for a route pattern: each parameter filled with a value the daemon routes.
    static func target(for route: DaemonRoute) -> String {
        var target = route.path
            .replacingOccurrences(of: "/studio/**", with: "/studio/index.html")
            .replacingOccurrences(of: "**", with: "card.yaml")
        let values = ["etag": "0000000000000000", "revision": "1", "environment": "default", "name": "nobody"]
        while let parameter = target.firstMatch(of: /\{([a-z]+)\}/) {
            target.replaceSubrange(parameter.range, with: values[String(parameter.1)] ?? "1")
        }
        return target
    }
}
