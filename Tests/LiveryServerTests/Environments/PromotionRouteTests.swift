import Foundation
import LiveryServer
import LiveryTesting
import Testing

/// `POST /v1/environments/{to}/promotions` and its preview, on a folder of environments.
@Suite(.timeLimit(.minutes(2))) struct PromotionRouteTests {
    @Test func previewThenPromoteStagingToProductionUnderIfMatch() async throws {
        let root = try EnvironmentFolderTests.root()
        try root.write("staging/title.yaml", "specs:\n  title:\n    - { type: CornerRadius, radius: 2 }\n")
        try root.write("production/old.yaml", "specs:\n  old: []\n")
        try await EnvironmentFolderTests.withEnvironments(root) { server in
            let staging = try #require(try await server.http.get("/v1/environments/staging/spec").header("ETag"))
            let production = try #require(
                try await server.http.get("/v1/environments/production/spec").header("ETag"))

            let preview = try await server.http.get("/v1/environments/production/promotions/preview?from=staging")
            #expect(preview.status == 200, "\(preview.text)")
            let body = try preview.json()
            #expect(body["added"] as? [String] == ["title.yaml"])
            #expect(body["changed"] as? [String] == ["palette.yaml"])
            #expect(body["removed"] as? [String] == ["old.yaml"])
            let identifiers = (body["identifiers"] as? [[String: Any]])?.compactMap { $0["identifier"] as? String }
            #expect(identifiers == ["card", "old", "title"])

            let promoted = try await server.http.post(
                "/v1/environments/production/promotions", json: #"{"from": "staging", "message": "ship it"}"#,
                headers: [("If-Match", production)])
            #expect(promoted.status == 200, "\(promoted.text)")
            #expect(try promoted.json()["etag"] as? String == staging)
            #expect(
                try await TestDaemon.eventually {
                    try await server.http.get("/v1/environments/production/spec").header("ETag") == staging
                })
            let history = try await server.http.get("/v1/environments/production/history?limit=1").json()
            let newest = (history["entries"] as? [[String: Any]])?.first
            #expect((newest?["message"] as? String)?.hasPrefix("promoted from staging at revision ") == true)
            #expect((newest?["message"] as? String)?.hasSuffix(": ship it") == true)
            #expect(newest?["by"] as? String == "token-file")

            let stale = try await server.http.post(
                "/v1/environments/production/promotions", json: #"{"from": "staging"}"#,
                headers: [("If-Match", production)])
            #expect(stale.status == 412, "\(stale.text)")
            let unknown = try await server.http.post(
                "/v1/environments/production/promotions", json: #"{"from": "qa"}"#)
            #expect(unknown.status == 404, "\(unknown.text)")
            let itself = try await server.http.post(
                "/v1/environments/production/promotions", json: #"{"from": "production"}"#)
            #expect(itself.status == 400, "\(itself.text)")
            let anonymous = try await server.http.post(
                "/v1/environments/production/promotions", json: #"{"from": "staging"}"#, token: .some(nil))
            #expect(anonymous.status == 401)
        }
    }
}
