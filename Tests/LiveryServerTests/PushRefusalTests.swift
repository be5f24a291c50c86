import Foundation
import HTTPTypes
import Livery
import LiveryServer
import LiveryTesting
import NIOHTTP1
import Testing

/// Every way a push is refused, with its status, its problem document, and nothing written.
@Suite(.timeLimit(.minutes(1))) struct PushRefusalTests {
    struct PathCase: Sendable, CustomTestStringConvertible {
        var urlPath: String
        var detail: String
        var testDescription: String { urlPath }
    }

    @Test(arguments: [
        PathCase(urlPath: "..%2Fescape.yaml", detail: "'../escape.yaml' leaves the specs folder"),
        PathCase(urlPath: "sub/..%2F..%2Fescape.yaml", detail: "'sub/../../escape.yaml' leaves the specs folder"),
        PathCase(urlPath: "%2Fetc%2Fescape.yaml", detail: "'/etc/escape.yaml' is an absolute path"),
        PathCase(urlPath: ".hidden.yaml", detail: "'.hidden.yaml' names a hidden file or folder"),
        PathCase(urlPath: "sub/.git/config.yaml", detail: "'sub/.git/config.yaml' names a hidden file or folder"),
        PathCase(urlPath: "notes.txt", detail: "'notes.txt' is not a .json, .yaml, .yml or .tokens file"),
        PathCase(urlPath: "card", detail: "'card' is not a .json, .yaml, .yml or .tokens file"),
    ])
    func aForbiddenPathIs400(_ test: PathCase) async throws {
        try await TestDaemon.with { server in
            let before = try folderEntries(server.folder)
            for reply in [
                try await server.http.put("/v1/specs/\(test.urlPath)", "specs: {}\n"),
                try await server.http.delete("/v1/specs/\(test.urlPath)"),
            ] {
                #expect(reply.status == 400)
                #expect(reply.header("Content-Type") == "application/problem+json")
                let problem = try reply.json()
                #expect(problem["type"] as? String == "urn:livery:problem:forbidden-path")
                #expect(problem["status"] as? Int == 400)
                #expect((problem["detail"] as? String)?.hasPrefix(test.detail) == true, "\(problem)")
            }
            #expect(try folderEntries(server.folder) == before)
        }
    }

    @Test(arguments: [String?.none, "wrong-token", TestDaemon.token + "x", String(TestDaemon.token.dropLast())])
    func aPushWithoutTheTokenIs401(token: String?) async throws {
        try await TestDaemon.with { server in
            let put = try await server.http.put("/v1/specs/new.yaml", "specs: {}\n", token: .some(token))
            #expect(put.status == 401)
            #expect(put.header("WWW-Authenticate") == #"Bearer realm="livery""#)
            #expect(try put.json()["type"] as? String == "urn:livery:problem:unauthorized")
            let delete = try await server.http.delete("/v1/specs/card.yaml", token: .some(token))
            #expect(delete.status == 401)
            #expect(!FileManager.default.fileExists(atPath: server.folder.url("new.yaml").path))
            #expect(FileManager.default.fileExists(atPath: server.folder.url("card.yaml").path))
        }
    }

    @Test func aStaleIfMatchIs412() async throws {
        try await TestDaemon.with { server in
            let original = try await server.http.get("/v1/specs/palette.yaml")
            let etag = try #require(original.header("ETag"))
            try server.folder.write("palette.yaml", "variables: { colors: { accent: \"#111111\" } }\n")
            let stale = try await server.http.put(
                "/v1/specs/palette.yaml", "variables: { colors: { accent: \"#222222\" } }\n",
                headers: [("If-Match", etag)])
            #expect(stale.status == 412)
            #expect(try stale.json()["type"] as? String == "urn:livery:problem:precondition-failed")
            let onDisk = try String(contentsOf: server.folder.url("palette.yaml"), encoding: .utf8)
            #expect(onDisk.contains("#111111"))

            let staleDelete = try await server.http.delete("/v1/specs/palette.yaml", headers: [("If-Match", etag)])
            #expect(staleDelete.status == 412)

            let anyMissing = try await server.http.put(
                "/v1/specs/missing.yaml", "specs: {}\n", headers: [("If-Match", "*")])
            #expect(anyMissing.status == 412)
            #expect(!FileManager.default.fileExists(atPath: server.folder.url("missing.yaml").path))
        }
    }

    @Test(arguments: [false, true])
    func aBodyOverTheLimitIs413(chunked: Bool) async throws {
        try await TestDaemon.with(maxBodyBytes: 4096) { server in
            let body = Data(("specs: {}\n" + String(repeating: "# padding\n", count: 1000)).utf8)
            let reply = try await server.http.send(
                .PUT, "/v1/specs/big.yaml", body: body, streamed: chunked,
                headers: [("Authorization", "Bearer \(TestDaemon.token)")])
            #expect(reply.status == 413)
            #expect(try reply.json()["type"] as? String == "urn:livery:problem:body-too-large")
            #expect(!FileManager.default.fileExists(atPath: server.folder.url("big.yaml").path))
            // Just under the limit is fine.
            let small = try await server.http.put(
                "/v1/specs/small.yaml", "specs: {}\n" + String(repeating: "#\n", count: 2000))
            #expect(small.status == 201)
        }
    }

    @Test func anInvalidResultIs422WithEveryError() async throws {
        try await TestDaemon.with { server in
            let bad =
                "include: [palette.yaml]\nspecs:\n  card:\n    - { type: CornerRadios, radius: 4 }\n    - { type: BackgroundColor, color: \"@colors.accnt\" }\n"
            let reply = try await server.http.put("/v1/specs/card.yaml", bad)
            #expect(reply.status == 422)
            #expect(reply.header("Content-Type") == "application/problem+json")
            let problem = try JSONDecoder().decode(Problem.self, from: reply.body)
            #expect(problem.type == "urn:livery:problem:invalid-spec")
            #expect(problem.title == "The specs would not validate")
            #expect(problem.status == 422)
            #expect(problem.detail == "2 errors; nothing was written")
            #expect(
                problem.errors == [
                    Diagnostic(
                        file: "card.yaml", line: 4, column: 15, code: "unknownTrait",
                        message: "unknown trait type 'CornerRadios'; did you mean 'CornerRadius'?"),
                    Diagnostic(
                        file: "card.yaml", line: 5, column: 39, code: "unresolvedReference",
                        message: "unknown variable '@colors.accnt'; did you mean '@colors.accent'?"),
                ])
            let onDisk = try String(contentsOf: server.folder.url("card.yaml"), encoding: .utf8)
            #expect(!onDisk.contains("CornerRadios"))
        }
    }

    /// A trait type the daemon does not know may be right (the program registers it): the 422
    /// says so, and how to build a daemon that knows it. A likely typo gets no such note.
    @Test func anUnknownTraitTypeSaysHowToBuildADaemonThatKnowsIt() async throws {
        try await TestDaemon.with { server in
            let reply = try await server.http.put(
                "/v1/specs/lamp.yaml", "specs:\n  lamp: [{ type: Glow, radius: 3 }]\n")
            #expect(reply.status == 422)
            let problem = try JSONDecoder().decode(Problem.self, from: reply.body)
            #expect(
                problem.detail == """
                    1 error; nothing was written; note: this daemon knows no trait type 'Glow'; if your program \
                    registers it, build your own livery with LiveryCommand.main(registry:) on that registry \
                    (README, "Your own traits")
                    """)
            let typo = try await server.http.put(
                "/v1/specs/lamp.yaml", "specs:\n  lamp: [{ type: CornerRadios, radius: 3 }]\n")
            #expect(try JSONDecoder().decode(Problem.self, from: typo.body).detail == "1 error; nothing was written")
        }
    }

    @Test func removingAnIncludedFileIs422() async throws {
        try await TestDaemon.with { server in
            let reply = try await server.http.delete("/v1/specs/palette.yaml")
            #expect(reply.status == 422)
            let problem = try JSONDecoder().decode(Problem.self, from: reply.body)
            #expect(problem.errors?.first?.file == "card.yaml")
            #expect(FileManager.default.fileExists(atPath: server.folder.url("palette.yaml").path))
        }
    }

    @Test func aBodyThatIsNotUTF8Is422() async throws {
        try await TestDaemon.with { server in
            let reply = try await server.http.send(
                .PUT, "/v1/specs/binary.yaml", body: Data([0x73, 0x70, 0xFF, 0xFE, 0x0A]),
                headers: [("Authorization", "Bearer \(TestDaemon.token)")])
            #expect(reply.status == 422)
            let problem = try JSONDecoder().decode(Problem.self, from: reply.body)
            #expect(problem.errors?.first?.code == "syntax")
            #expect(problem.errors?.first?.file == "binary.yaml")
        }
    }
}

/// Every name in the folder, hidden ones included, recursively.
func folderEntries(_ folder: TemporarySpecFolder) throws -> [String] {
    let names = FileManager.default.subpaths(atPath: folder.url.path) ?? []
    return names.sorted()
}
