import Foundation
import LiveryServer
import LiveryTesting
import Testing

/// OpenFeature's remote evaluation protocol per environment: `/ofrep/v1/…` evaluates the default
/// environment's flags, `/v1/environments/{env}/ofrep/v1/…` that environment's, with the read
/// key as `X-API-Key` on both, and a bulk answer names its own environment's event stream.
@Suite(.timeLimit(.minutes(1))) struct OFREPEnvironmentTests {
    @Test func anEnvironmentsEvaluationGivesThatEnvironmentsValue() async throws {
        let root = try TemporarySpecFolder(prefix: "livery-ofrep-environments")
        for (name, accent) in [("default", "#0A84FF"), ("staging", "#FF9F0A")] {
            for (path, contents) in TestDaemon.exampleFiles(accent: accent) {
                try root.write("\(name)/\(path)", contents ?? "")
            }
        }
        let key = "read-key-0123456789abcdef"
        let token = try BearerToken(key)
        try await TestDaemon.with(
            folder: root,
            configure: { configuration in
                configuration.environmentsRoot = root.url
                configuration.readToken = token
            }
        ) { server in
            func evaluate(_ prefix: String, apiKey: String = key) async throws -> HTTP.Reply {
                try await server.http.post(
                    "\(prefix)/ofrep/v1/evaluate/flags/colors.accent", json: "{}", token: .some(nil),
                    headers: [("X-API-Key", apiKey)])
            }
            let production = try await evaluate("")
            #expect(production.status == 200, "\(production.text)")
            #expect(try production.json()["value"] as? String == "#0A84FF")
            let staging = try await evaluate("/v1/environments/staging")
            #expect(staging.status == 200, "\(staging.text)")
            #expect(try staging.json()["value"] as? String == "#FF9F0A")
            let stagingVersion = try #require(
                try await server.http.get(
                    "/v1/environments/staging/spec", headers: [("Authorization", "Bearer \(key)")]
                ).header("ETag"))
            let metadata = try #require(try staging.json()["metadata"] as? [String: String])
            #expect(metadata["livery.version"] == stagingVersion)
            #expect(try await evaluate("/v1/environments/staging", apiKey: "wrong").status == 401)
            #expect(try await evaluate("/v1/environments/nowhere").status == 404)
            let elsewhere = try await server.http.get("/v1/environments/staging/spec", headers: [("X-API-Key", key)])
            #expect(elsewhere.status == 401, "X-API-Key is the OFREP providers' form only, in every environment")

            for (prefix, events) in [
                ("", "/ofrep/v1/events"), ("/v1/environments/staging", "/v1/environments/staging/ofrep/v1/events"),
            ] {
                let bulk = try await server.http.post(
                    "\(prefix)/ofrep/v1/evaluate/flags", json: "{}", token: .some(nil), headers: [("X-API-Key", key)])
                #expect(bulk.status == 200, "\(bulk.text)")
                let streams = try #require(try bulk.json()["eventStreams"] as? [[String: Any]])
                #expect((streams.first?["endpoint"] as? [String: String])?["requestUri"] == events)
            }
        }
    }
}
