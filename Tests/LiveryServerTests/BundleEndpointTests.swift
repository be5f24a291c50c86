import Foundation
import Livery
import LiveryServer
import LiveryTesting
import Testing

/// `GET /v1/spec`: the bundle, its strong content ETag and conditional requests.
@Suite(.timeLimit(.minutes(1))) struct BundleEndpointTests {
    @Test func servesTheBundleWithAContentETag() async throws {
        try await TestDaemon.with { server in
            let reply = try await server.http.get("/v1/spec")
            #expect(reply.status == 200)
            #expect(reply.header("Content-Type") == "application/json")
            #expect(reply.header("Cache-Control") == "no-cache")
            let expected = try Spec(directory: server.folder.url).bundleJSON
            #expect(reply.text == expected)
            #expect(reply.header("ETag") == EntityTag(of: Data(expected.utf8)).description)
            #expect(try #require(reply.header("ETag")).count == 18)  // "…16 hex digits…"
            let reloaded = try Spec(json: reply.text)
            #expect(reloaded.identifiers == ["card"])
        }
    }

    @Test(arguments: [
        (#"{etag}"#, 304), (#"W/{etag}"#, 304), (#""0000000000000000", {etag}"#, 304), ("*", 304),
        (#""0000000000000000""#, 200),
    ])
    func ifNoneMatch(header: String, status: Int) async throws {
        try await TestDaemon.with { server in
            let etag = try #require(try await server.http.get("/v1/spec").header("ETag"))
            let reply = try await server.http.get(
                "/v1/spec", headers: [("If-None-Match", header.replacingOccurrences(of: "{etag}", with: etag))])
            #expect(reply.status == status)
            #expect(reply.header("ETag") == etag)
            #expect(reply.body.isEmpty == (status == 304))
        }
    }

    @Test func theETagSurvivesARestartOnTheSameContent() async throws {
        let folder = try TemporarySpecFolder(prefix: "livery-server")
        try TestDaemon.writeExample(to: folder)
        let first = try await TestDaemon.with(folder: folder) { try await $0.http.get("/v1/spec") }
        let second = try await TestDaemon.with(folder: folder) { server in
            let reply = try await server.http.get("/v1/spec", headers: [("If-None-Match", first.header("ETag") ?? "")])
            #expect(reply.status == 304)
            return try await server.http.get("/v1/spec")
        }
        #expect(first.header("ETag") != nil)
        #expect(first.header("ETag") == second.header("ETag"))
        #expect(first.body == second.body)
    }

    @Test(arguments: ["soon", "-1s", "10h", "1e3"])
    func aBadWaitIsRefused(wait: String) async throws {
        try await TestDaemon.with { server in
            let reply = try await server.http.get("/v1/spec?wait=\(wait)")
            #expect(reply.status == 400)
            #expect(reply.header("Content-Type") == "application/problem+json")
            #expect(try reply.json()["type"] as? String == "urn:livery:problem:bad-wait")
        }
    }
}
