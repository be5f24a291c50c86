import Foundation
import LiveryServer
import Testing

/// `/studio/` (the page's files, with a strict Content-Security-Policy) and `GET /v1/resolved`.
@Suite(.timeLimit(.minutes(1))) struct StudioRouteTests {
    static let policy =
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
        + "object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

    @Test func thePageAndItsModulesAreServedWithAStrictPolicy() async throws {
        try await TestDaemon.with { server in
            for path in ["/studio/", "/studio"] {
                let page = try await server.http.get(path)
                #expect(page.status == 200, "\(path)")
                #expect(page.header("Content-Type") == "text/html; charset=utf-8")
                #expect(page.header("Content-Security-Policy") == Self.policy)
                #expect(page.header("X-Content-Type-Options") == "nosniff")
                #expect(page.header("Access-Control-Allow-Origin") == nil)
                #expect(page.text.contains(#"<script type="module" src="/studio/js/app.js"></script>"#))
            }
            let script = try await server.http.get("/studio/js/app.js")
            #expect(script.status == 200)
            #expect(script.header("Content-Type") == "text/javascript; charset=utf-8")
            #expect(script.header("Content-Security-Policy") == Self.policy)
            let tag = try #require(script.header("ETag"))
            #expect(try await server.http.get("/studio/js/app.js", headers: [("If-None-Match", tag)]).status == 304)
        }
    }

    /// The page's folder in the repository, whose files the daemon compiles in.
    static let pageFolder = URL(filePath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appending(path: "Sources/LiveryServer/Studio/Page")

    @Test func everyFileOfThePageFolderIsServedAsItIs() async throws {
        let types = ["html": "text/html", "css": "text/css", "js": "text/javascript"]
        let root = Self.pageFolder.standardizedFileURL.path + "/"
        let walker = try #require(FileManager.default.enumerator(atPath: root))
        let paths = walker.compactMap { $0 as? String }.filter { types[URL(filePath: $0).pathExtension] != nil }
        #expect(paths.count > 10, "the page's files under \(root)")
        try await TestDaemon.with { server in
            for path in paths {
                let reply = try await server.http.get("/studio/" + path)
                #expect(reply.status == 200, "\(path)")
                let type = try #require(types[URL(filePath: path).pathExtension])
                #expect(reply.header("Content-Type") == type + "; charset=utf-8", "\(path)")
                #expect(reply.body == (try Data(contentsOf: URL(filePath: root + path))), "\(path)")
            }
        }
    }

    @Test func onlyTheStudiosOwnFilesAreServed() async throws {
        try await TestDaemon.with { server in
            for path in [
                "/studio/nope.js", "/studio/../v1/spec", "/studio/%2e%2e/Package.swift", "/studio/js/../../card.yaml",
            ] {
                let reply = try await server.http.get(path)
                #expect(reply.status == 404, "\(path)")
            }
        }
    }

    @Test func noStudioMeansNoPageButTheResolvedViewStays() async throws {
        try await TestDaemon.with(configure: { $0.studio = false }) { server in
            let page = try await server.http.get("/studio/")
            let resolved = try await server.http.get("/v1/resolved")
            #expect(page.status == 404)
            #expect(resolved.status == 200)
        }
    }

    @Test func theStudioIsOnByDefaultOnLoopbackOrWithTLS() throws {
        let folder = URL(filePath: "/nonexistent")
        let tls = TLSFiles(certificatePath: "/etc/livery/tls.crt", keyPath: "/etc/livery/tls.key")
        #expect(DaemonConfiguration(directory: folder, host: "127.0.0.1").servesStudio)
        #expect(DaemonConfiguration(directory: folder, host: "::1").servesStudio)
        #expect(!DaemonConfiguration(directory: folder, host: "0.0.0.0").servesStudio)
        #expect(DaemonConfiguration(directory: folder, host: "0.0.0.0", tls: tls).servesStudio)
        #expect(DaemonConfiguration(directory: folder, host: "192.0.2.7", tls: tls).servesStudio)
        #expect(!DaemonConfiguration(directory: folder, host: "0.0.0.0", studio: false, tls: tls).servesStudio)
        #expect(DaemonConfiguration(directory: folder, host: "0.0.0.0", studio: true).servesStudio)
        #expect(!DaemonConfiguration(directory: folder, host: "127.0.0.1", studio: false).servesStudio)
    }

    @Test func resolvedCarriesPlacesAndTheBundlesTag() async throws {
        try await TestDaemon.with { server in
            let bundle = try await server.http.get("/v1/spec")
            let reply = try await server.http.get("/v1/resolved")
            #expect(reply.status == 200)
            #expect(reply.header("ETag") == bundle.header("ETag"))
            let json = try reply.json()
            let identifiers = try #require(json["identifiers"] as? [[String: Any]])
            let card = try #require(identifiers.first { $0["name"] as? String == "card" })
            let looks = try #require(card["traits"] as? [[[String: Any]]])
            let first = try #require(looks.first?.first)
            #expect(first["type"] as? String == "BackgroundColor")
            #expect(first["references"] as? [String] == ["colors.accent"])
            let place = try #require(first["place"] as? [String: Any])
            #expect(place["file"] as? String == "card.yaml")
            #expect(place["line"] as? Int == 4)
            #expect(place["column"] as? Int == 7)
            #expect((first["values"] as? [String: Any])?["color"] as? String == "#0A84FF")
            let tag = try #require(reply.header("ETag"))
            let again = try await server.http.get("/v1/resolved", headers: [("If-None-Match", tag)])
            #expect(again.status == 304)
        }
    }
}
