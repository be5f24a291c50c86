import Foundation
import LiveryServer
import NIOHTTP1
import Testing

/// `GET /v1/openapi.yaml` serves the repository's `openapi.yaml`, byte for byte, with a strong
/// validator. Whether the document is true is the schemathesis run's job (`scripts/openapi`).
@Suite(.timeLimit(.minutes(1))) struct OpenAPIDocumentTests {
    /// `openapi.yaml` at the repository root.
    static let repositoryDocument = URL(filePath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appending(path: "openapi.yaml")

    @Test func servesTheRepositoryDocument() async throws {
        let expected = try Data(contentsOf: Self.repositoryDocument)
        try await TestDaemon.with { server in
            let reply = try await server.http.get("/v1/openapi.yaml")
            #expect(reply.status == 200)
            #expect(reply.header("Content-Type") == "application/yaml")
            #expect(reply.header("Cache-Control") == "no-cache")
            #expect(reply.body == expected)
            #expect(reply.text.hasPrefix("openapi: 3.1"))
        }
    }

    @Test func revalidatesToNotModified() async throws {
        try await TestDaemon.with { server in
            let first = try await server.http.get("/v1/openapi.yaml")
            let etag = try #require(first.header("ETag"))
            #expect(etag.wholeMatch(of: /"[0-9a-f]{16}"/) != nil)
            let again = try await server.http.get("/v1/openapi.yaml", headers: [("If-None-Match", etag)])
            #expect(again.status == 304 && again.body.isEmpty)
            #expect(again.header("ETag") == etag)
            let other = try await server.http.get(
                "/v1/openapi.yaml", headers: [("If-None-Match", #""0000000000000000""#)])
            #expect(other.status == 200 && other.body == first.body)
        }
    }

    @Test func answersOptionsAndRefusesWrites() async throws {
        try await TestDaemon.with { server in
            let options = try await server.http.send(.OPTIONS, "/v1/openapi.yaml")
            #expect(options.status == 204)
            #expect(options.header("Allow") == "GET, HEAD, OPTIONS")
            let put = try await server.http.send(.PUT, "/v1/openapi.yaml", body: Data("x".utf8))
            #expect(put.status == 405)
        }
    }
}
