import Foundation
import Livery
import LiveryServer
import LiveryTesting
import NIOHTTP1
import Testing

/// `GET /v1/css` and `/v1/css/{etag}`: the bundle's stylesheet through the bundle's rules
/// (strong tags, 304, HEAD, gzip with `Vary`, a kept version immutable), rendered once per
/// version; and `GET /v1/livery.js`, the browser client.
@Suite(.timeLimit(.minutes(1))) struct StyleSheetEndpointTests {
    static func request(_ target: String, _ fields: String = "", method: String = "GET") -> String {
        "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n\(fields)Connection: close\r\n\r\n"
    }

    @Test func theStylesheetIsTheSpecAsCSS() async throws {
        try await TestDaemon.with { server in
            let answer = try await RawResponse.exchange(Self.request("/v1/css"), port: server.port)
            #expect(answer.status == 200)
            #expect(answer.field("Content-Type") == "text/css; charset=utf-8")
            #expect(answer.field("Cache-Control") == "no-cache")
            #expect(answer.field("Vary") == "Accept-Encoding")
            let spec = try Spec(directory: server.folder.url)
            #expect(String(decoding: answer.body, as: UTF8.self) == (try spec.styleSheet().text))
            #expect(answer.field("Content-Length") == String(answer.body.count))
        }
    }

    @Test func itsTagsConditionsHeadAndGzipFollowTheBundlesRules() async throws {
        try await TestDaemon.with { server in
            let plain = try await RawResponse.exchange(Self.request("/v1/css"), port: server.port)
            let gzip = try await RawResponse.exchange(
                Self.request("/v1/css", "Accept-Encoding: gzip\r\n"), port: server.port)
            let bundle = try await RawResponse.exchange(Self.request("/v1/spec"), port: server.port)
            let plainTag = try #require(plain.field("ETag"))
            let gzipTag = try #require(gzip.field("ETag"))
            #expect(gzip.field("Content-Encoding") == "gzip" && gzip.body.prefix(2) == Data([0x1F, 0x8B]))
            #expect(Set([plainTag, gzipTag, bundle.field("ETag") ?? ""]).count == 3)
            for (fields, status, etag) in [
                ("If-None-Match: \(plainTag)\r\n", 304, plainTag),
                ("Accept-Encoding: gzip\r\nIf-None-Match: \(gzipTag)\r\n", 304, gzipTag),
                ("If-None-Match: \(gzipTag)\r\n", 200, plainTag),
            ] {
                let answer = try await RawResponse.exchange(Self.request("/v1/css", fields), port: server.port)
                #expect(answer.status == status && answer.field("ETag") == etag, "\(fields): \(answer)")
            }
            let head = try await RawResponse.exchange(Self.request("/v1/css", method: "HEAD"), port: server.port)
            #expect(head.status == 200 && head.body.isEmpty && head.field("Content-Length") == String(plain.body.count))
        }
    }

    @Test func aVersionIsNamedByTheBundlesTagAndKeptImmutable() async throws {
        try await TestDaemon.with { server in
            let version = try #require(try await server.http.get("/v1/spec").header("ETag"))
            let current = try await server.http.get("/v1/css")
            let bare = String(version.dropFirst().dropLast())
            let kept = try await RawResponse.exchange(Self.request("/v1/css/\(bare)"), port: server.port)
            #expect(kept.status == 200 && kept.body == current.body)
            #expect(kept.field("Cache-Control") == "public, max-age=31536000, immutable")
            try server.folder.write("extra.yaml", "specs:\n  extra: [{ type: Opacity, opacity: 0.5 }]\n")
            let changed = try await server.http.get("/v1/spec?wait=5s", headers: [("If-None-Match", version)])
            #expect(changed.status == 200)
            let old = try await RawResponse.exchange(Self.request("/v1/css/\(bare)"), port: server.port)
            #expect(old.status == 200 && old.body == current.body)
            let latest = try await server.http.get("/v1/css")
            #expect(String(decoding: latest.body, as: UTF8.self).contains("[data-livery~=\"extra\"]"))
            let unknown = try await RawResponse.exchange(Self.request("/v1/css/0123456789abcdef"), port: server.port)
            #expect(unknown.status == 404)
        }
    }

    @Test func theStylesheetIsRenderedOncePerVersion() async throws {
        try await TestDaemon.with { server in
            let first = try await server.http.get("/v1/css")
            let snapshot = try #require(server.daemon.hub.snapshot)
            let again = try await server.http.get("/v1/css")
            #expect(first.body == again.body)
            #expect(server.daemon.hub.snapshot?.styleSheet.identity === snapshot.styleSheet.identity)
        }
    }

    @Test func aDryRunRendersOneLookOfUnsavedFilesAndWritesNothing() async throws {
        try await TestDaemon.with { server in
            let palette = server.folder.url.appending(path: "palette.yaml")
            let before = try String(contentsOf: palette, encoding: .utf8)
            let edited = """
                variables: { colors: { accent: "#FF3B30" } }
                themes: { dark: { colors: { accent: "#64D2FF" } } }

                """
            let body = try JSONSerialization.data(withJSONObject: ["files": ["palette.yaml": edited]])
            let token = [("Authorization", "Bearer \(TestDaemon.token)"), ("Content-Type", "application/json")]
            for (query, colour) in [("", "#FF3B30"), ("&theme=dark", "#64D2FF")] {
                let answer = try await server.http.send(
                    .POST, "/v1/css?dryRun=true\(query)", body: body, headers: token)
                #expect(answer.status == 200, "\(answer.text)")
                #expect(answer.header("Content-Type") == "text/css; charset=utf-8")
                #expect(!answer.text.contains("data-livery-theme"))
                #expect(
                    answer.text.contains("[data-livery~=\"card\"] {\n  background-color: \(colour);"), "\(answer.text)")
            }
            #expect(try String(contentsOf: palette, encoding: .utf8) == before)
            let bad = try JSONSerialization.data(withJSONObject: ["files": ["palette.yaml": "variables: [\n"]])
            #expect(try await server.http.send(.POST, "/v1/css?dryRun=true", body: bad, headers: token).status == 422)
            #expect(try await server.http.send(.POST, "/v1/css", body: body, headers: token).status == 400)
            #expect(try await server.http.send(.POST, "/v1/css?dryRun=true", body: body).status == 401)
            let unknown = try await server.http.send(
                .POST, "/v1/css?dryRun=true&theme=dusk", body: body, headers: token)
            #expect(unknown.status == 404)
        }
    }

    /// The browser client, and its verification (loaded by it for `follow(base, {root})`).
    @Test(arguments: [
        ("/v1/livery.js", "export function follow(baseURL, options = {})"),
        ("/v1/livery-tuf.js", "export class TrustedRepository"),
    ])
    func theBrowserClientIsAnESModuleWithATag(path: String, export: String) async throws {
        try await TestDaemon.with { server in
            let answer = try await RawResponse.exchange(Self.request(path), port: server.port)
            #expect(answer.status == 200)
            #expect(answer.field("Content-Type") == "text/javascript; charset=utf-8")
            let text = String(decoding: answer.body, as: UTF8.self)
            #expect(text.contains(export))
            let tag = try #require(answer.field("ETag"))
            let again = try await RawResponse.exchange(
                Self.request(path, "If-None-Match: \(tag)\r\n"), port: server.port)
            #expect(again.status == 304)
        }
    }
}
