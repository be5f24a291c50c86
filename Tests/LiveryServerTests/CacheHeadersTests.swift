import Foundation
import LiveryServer
import Testing

/// What each resource tells caches: state that changes every instant is `no-store`; the bundle
/// and the files are `no-cache` with a validator, and revalidate to 304.
@Suite(.timeLimit(.minutes(1))) struct CacheHeadersTests {
    @Test func liveStateIsNeverStored() async throws {
        try await TestDaemon.with { server in
            for path in ["/metrics", "/v1/status", "/healthz"] {
                let reply = try await server.http.get(path)
                #expect(reply.status == 200)
                #expect(reply.header("Cache-Control") == "no-store", "\(path)")
            }
        }
    }

    @Test func theListingHasAValidatorThatFollowsTheFiles() async throws {
        try await TestDaemon.with { server in
            let first = try await server.http.get("/v1/specs")
            #expect(first.header("Cache-Control") == "no-cache")
            #expect(first.header("Content-Type") == "application/json")
            let etag = try #require(first.header("ETag"))
            let again = try await server.http.get("/v1/specs", headers: [("If-None-Match", etag)])
            #expect(again.status == 304 && again.body.isEmpty)
            #expect(again.header("ETag") == etag)
            _ = try await server.http.put("/v1/specs/extra.yaml", "specs:\n  extra: []\n")
            let changed = try await server.http.get("/v1/specs", headers: [("If-None-Match", etag)])
            #expect(changed.status == 200 && changed.header("ETag") != etag, "\(changed.text)")
            #expect(changed.text.contains("extra.yaml"))
        }
    }
}
