import Foundation
import Livery
import LiveryServer
import LiveryTesting
import Testing

/// Accepted pushes: written atomically and exactly, listed and readable back, and deleted.
@Suite(.timeLimit(.minutes(1))) struct PushWriteTests {
    @Test func aPushCreatesThenReplacesAFileExactly() async throws {
        try await TestDaemon.with { server in
            let first = "specs:\n  badge:\n    - { type: CornerRadius, radius: 3 }\n"
            let created = try await server.http.put("/v1/specs/themes/badge.yaml", first)
            #expect(created.status == 201)
            #expect(created.header("ETag") == EntityTag(of: Data(first.utf8)).description)
            #expect(created.header("Location") == "/v1/specs/themes/badge.yaml")
            #expect(try Data(contentsOf: server.folder.url("themes/badge.yaml")) == Data(first.utf8))

            let second = "specs:\n  badge:\n    - { type: CornerRadius, radius: 4 }\n"
            let replaced = try await server.http.put(
                "/v1/specs/themes/badge.yaml", second, headers: [("If-Match", try #require(created.header("ETag")))])
            #expect(replaced.status == 200)
            #expect(replaced.header("ETag") == EntityTag(of: Data(second.utf8)).description)
            #expect(try Data(contentsOf: server.folder.url("themes/badge.yaml")) == Data(second.utf8))
            #expect(
                try folderEntries(server.folder) == ["card.yaml", "palette.yaml", "themes", "themes/badge.yaml"],
                "no temporary file is left behind")
        }
    }

    @Test func filesAreListedAndReadBack() async throws {
        try await TestDaemon.with { server in
            let list = try await server.http.get("/v1/specs")
            #expect(list.status == 200)
            let files = try JSONDecoder().decode([String: [SpecFileEntry]].self, from: list.body)["files"] ?? []
            let card = try Data(contentsOf: server.folder.url("card.yaml"))
            let palette = try Data(contentsOf: server.folder.url("palette.yaml"))
            #expect(
                files == [
                    SpecFileEntry(path: "card.yaml", etag: EntityTag(of: card).description, size: card.count),
                    SpecFileEntry(path: "palette.yaml", etag: EntityTag(of: palette).description, size: palette.count),
                ])

            let one = try await server.http.get("/v1/specs/card.yaml")
            #expect(one.status == 200)
            #expect(one.body == card)
            #expect(one.header("ETag") == files.first?.etag)
            #expect(one.header("Content-Type") == "application/yaml; charset=utf-8")
            let cached = try await server.http.get("/v1/specs/card.yaml", headers: [("If-None-Match", files[0].etag)])
            #expect(cached.status == 304)
            #expect(try await server.http.get("/v1/specs/missing.yaml").status == 404)
        }
    }

    @Test func aJSONBodyMayGoToAYAMLPath() async throws {
        try await TestDaemon.with { server in
            let json = #"{"specs": {"chip": [{"type": "CornerRadius", "radius": 2}]}}"#
            let reply = try await server.http.put("/v1/specs/chip.yaml", json)
            #expect(reply.status == 201)
            #expect(
                try await TestDaemon.eventually {
                    try await server.http.get("/v1/spec").text.contains("chip")
                })
        }
    }

    @Test func deleteRemovesAFileAndTheBundleFollows() async throws {
        try await TestDaemon.with { server in
            #expect(try await server.http.put("/v1/specs/extra.json", #"{"specs": {"extra": []}}"#).status == 201)
            #expect(try await TestDaemon.eventually { try await server.http.get("/v1/spec").text.contains("extra") })
            let etag = try #require(try await server.http.get("/v1/specs/extra.json").header("ETag"))
            let deleted = try await server.http.delete("/v1/specs/extra.json", headers: [("If-Match", etag)])
            #expect(deleted.status == 204)
            #expect(!FileManager.default.fileExists(atPath: server.folder.url("extra.json").path))
            #expect(try await TestDaemon.eventually { try await !server.http.get("/v1/spec").text.contains("extra") })
            #expect(try await server.http.delete("/v1/specs/extra.json").status == 404)
            #expect(try folderEntries(server.folder) == ["card.yaml", "palette.yaml"])
        }
    }
}
