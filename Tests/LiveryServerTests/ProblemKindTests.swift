import Foundation
import HTTPTypes
import LiveryServer
import NIOHTTP1
import Testing

/// The catalogue of problem kinds: each kind has one status and one title wherever it is
/// answered, no problem type is written outside the catalogue, and the OpenAPI document lists
/// exactly its kinds.
@Suite(.timeLimit(.minutes(1))) struct ProblemKindTests {
    static let root = URL(filePath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test func everyKindHasOneStatusAndATitleOfItsOwn() {
        for kind in ProblemKind.allCases {
            #expect(kind.rawValue.wholeMatch(of: /[a-z]+(-[a-z]+)*/) != nil, "\(kind)")
            #expect((400...599).contains(kind.status.code), "\(kind)")
            let problem = Problem(kind: kind, detail: "why")
            #expect(problem.type == "urn:livery:problem:\(kind.rawValue)")
            #expect(problem.statusCode == kind.status.code && problem.title == kind.title)
            #expect(problem.kind == kind)
        }
        let titles = ProblemKind.allCases.map(\.title)
        #expect(Set(titles).count == titles.count, "two kinds share a title: \(titles)")
    }

    @Test func noSourceWritesAProblemTypeOutsideTheCatalogue() throws {
        let sources = Self.root.appending(path: "Sources")
        let files = try #require(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
        var writers: [String] = []
        for case let file as URL in files where ["swift", "js"].contains(file.pathExtension) {
            let text = try String(contentsOf: file, encoding: .utf8)
            if text.contains("\"urn:livery:problem:") && file.lastPathComponent != "Problem.swift" {
                writers.append(file.lastPathComponent)
            }
        }
        #expect(writers.isEmpty, "problem types written outside ProblemKind: \(writers)")
    }

    @Test func theOpenAPIDocumentListsEveryKind() throws {
        let document = try String(contentsOf: Self.root.appending(path: "openapi.yaml"), encoding: .utf8)
        let listed = Set(document.matches(of: /urn:livery:problem:([a-z-]+)/).map { String($0.1) })
        #expect(listed == Set(ProblemKind.allCases.map(\.rawValue)))
    }

    @Test func anUnknownThemeIs404OnEveryRoute() async throws {
        try await TestDaemon.with { server in
            let palette = ##"variables: { colors: { accent: "#FF3B30" } }"## + "\n"
            let body = try JSONSerialization.data(withJSONObject: ["files": ["palette.yaml": palette]])
            let token = [("Authorization", "Bearer \(TestDaemon.token)"), ("Content-Type", "application/json")]
            let rendered = try await server.http.send(
                .POST, "/v1/css?dryRun=true&theme=dusk", body: body, headers: token)
            let tokens = try await server.http.get("/v1/tokens?theme=dusk")
            for answer in [rendered, tokens] {
                #expect(answer.status == 404, "\(answer.text)")
                #expect(try answer.json()["type"] as? String == "urn:livery:problem:unknown-theme")
            }
        }
    }

    @Test func noRolloutToReadIs404AndNoneToChangeIs409() async throws {
        try await TestDaemon.with { server in
            let read = try await server.http.get("/v1/rollout")
            #expect(read.status == 404)
            #expect(try read.json()["type"] as? String == "urn:livery:problem:no-rollout")
            let change = try await server.http.post("/v1/rollout", json: #"{"action": "abort"}"#)
            #expect(change.status == 409, "\(change.text)")
            #expect(try change.json()["type"] as? String == "urn:livery:problem:rollout-not-running")
        }
    }
}
