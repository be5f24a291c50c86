import Foundation
import LiveryServer
import LiveryTesting
import Testing

/// `livery serve --environments ROOT`: each subfolder an environment with its own files,
/// bundle and version signal, served at `/v1/environments/{env}/…`; the routes without an
/// environment address the default one.
@Suite(.timeLimit(.minutes(2))) struct EnvironmentFolderTests {
    /// A folder of environments: `production` and `staging`, each with the example specs in its
    /// own accent, and a folder whose name is no environment name.
    static func root() throws -> TemporarySpecFolder {
        let root = try TemporarySpecFolder(prefix: "livery-environments")
        for (name, accent) in [("production", "#0A84FF"), ("staging", "#FF9F0A")] {
            for (path, contents) in TestDaemon.exampleFiles(accent: accent) {
                try root.write("\(name)/\(path)", contents ?? "")
            }
        }
        try root.write("Not_An_Environment/card.yaml", "specs: {}\n")
        return root
    }

    /// The file at `path` in `root`.
    static func read(_ root: TemporarySpecFolder, _ path: String) throws -> String {
        try String(contentsOf: root.url.appending(path: path), encoding: .utf8)
    }

    /// A daemon serving `root`'s environments, `configure`d further.
    static func withEnvironments<T>(
        _ root: TemporarySpecFolder, configure: @escaping (inout DaemonConfiguration) -> Void = { _ in },
        _ body: (TestDaemon) async throws -> T
    ) async throws -> T {
        try await TestDaemon.with(
            folder: root,
            configure: { configuration in
                configuration.environmentsRoot = root.url
                configure(&configuration)
            }, body)
    }

    @Test func aFollowerOfStagingNeverSeesAPushToProduction() async throws {
        let root = try Self.root()
        try await Self.withEnvironments(root) { server in
            let staging = try await server.http.get("/v1/environments/staging/spec")
            let production = try await server.http.get("/v1/environments/production/spec")
            #expect(staging.status == 200 && production.status == 200, "\(staging.text) \(production.text)")
            let stagingTag = try #require(staging.header("ETag"))
            let productionTag = try #require(production.header("ETag"))
            #expect(stagingTag != productionTag)
            // A staging follower waits on its own version signal while production changes.
            async let waited = server.http.get(
                "/v1/environments/staging/spec?wait=2s", headers: [("If-None-Match", stagingTag)])
            let push = try await server.http.put(
                "/v1/environments/production/specs/palette.yaml", "variables:\n  colors:\n    accent: \"#30D158\"\n")
            #expect(push.status == 200, "\(push.text)")
            #expect(
                try await TestDaemon.eventually {
                    try await server.http.get("/v1/environments/production/spec").header("ETag") != productionTag
                })
            #expect(try await waited.status == 304)
            #expect(try await server.http.get("/v1/environments/staging/spec").body == staging.body)
            #expect(try Self.read(root, "staging/palette.yaml").contains("#FF9F0A"))
            #expect(try Self.read(root, "production/palette.yaml").contains("#30D158"))
            // And the other way round: staging's push reaches staging only.
            let changed = try await server.http.get("/v1/environments/production/spec")
            #expect(
                try await server.http.put(
                    "/v1/environments/staging/specs/palette.yaml", "variables:\n  colors:\n    accent: \"#FF375F\"\n"
                ).status == 200)
            #expect(
                try await TestDaemon.eventually {
                    try await server.http.get("/v1/environments/staging/spec").header("ETag") != stagingTag
                })
            #expect(try await server.http.get("/v1/environments/production/spec").body == changed.body)
        }
    }

    @Test func environmentsAreListedCreatedAsExactCopiesAndDeleted() async throws {
        let root = try Self.root()
        try await Self.withEnvironments(root) { server in
            let list = try await server.http.get("/v1/environments").json()
            let listed = try #require(list["environments"] as? [[String: Any]])
            #expect(listed.compactMap { $0["name"] as? String } == ["production", "staging"])
            let production = try await server.http.get("/v1/environments/production/spec")
            #expect(listed.first?["etag"] as? String == production.header("ETag"))

            let created = try await server.http.post("/v1/environments", json: #"{"name": "qa", "from": "production"}"#)
            #expect(created.status == 201, "\(created.text)")
            #expect(created.header("Location") == "/v1/environments/qa")
            #expect(
                try await TestDaemon.eventually {
                    try await server.http.get("/v1/environments/qa/spec").header("ETag") == production.header("ETag")
                })
            for path in ["palette.yaml", "card.yaml"] {
                #expect(try Self.read(root, "qa/\(path)") == Self.read(root, "production/\(path)"))
            }
            #expect(
                try FileManager.default.contentsOfDirectory(atPath: root.url.appending(path: "qa").path).sorted()
                    == ["card.yaml", "palette.yaml"])

            let empty = try await server.http.post("/v1/environments", json: #"{"name": "sandbox"}"#)
            #expect(empty.status == 201, "\(empty.text)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: root.url.appending(path: "sandbox").path) == [])
            let again = try await server.http.post("/v1/environments", json: #"{"name": "qa"}"#)
            #expect(again.status == 409 && again.text.contains("exists already"), "\(again.text)")
            let badName = try await server.http.post("/v1/environments", json: #"{"name": "QA"}"#)
            #expect(badName.status == 400, "\(badName.text)")
            let unknownSource = try await server.http.post("/v1/environments", json: #"{"name": "x", "from": "nope"}"#)
            #expect(unknownSource.status == 404, "\(unknownSource.text)")
            let withoutToken = try await server.http.post(
                "/v1/environments", json: #"{"name": "y"}"#, token: .some(nil))
            #expect(withoutToken.status == 401)

            #expect(try await server.http.delete("/v1/environments/qa").status == 204)
            #expect(!FileManager.default.fileExists(atPath: root.url.appending(path: "qa").path))
            let gone = try await server.http.get("/v1/environments/qa/spec")
            #expect(gone.status == 404)
            #expect(try gone.json()["type"] as? String == "urn:livery:problem:unknown-environment")
            let names = try #require(
                try await server.http.get("/v1/environments").json()["environments"] as? [[String: Any]])
            #expect(names.compactMap { $0["name"] as? String } == ["production", "sandbox", "staging"])
        }
    }

    @Test func routesWithoutAnEnvironmentAddressTheDefaultOne() async throws {
        let root = try Self.root()
        // No environment 'default': the routes without an environment name the ones there are.
        try await Self.withEnvironments(root) { server in
            for path in ["/v1/spec", "/v1/specs", "/v1/status"] {
                let reply = try await server.http.get(path)
                #expect(reply.status == 404, "\(path): \(reply.status)")
                #expect(try reply.json()["type"] as? String == "urn:livery:problem:unknown-environment")
                #expect(reply.text.contains("'production', 'staging'"), "\(reply.text)")
            }
            let unknown = try await server.http.get("/v1/environments/nope/version")
            #expect(unknown.status == 404 && unknown.text.contains("there is no environment 'nope'"))
            #expect(try await server.http.get("/healthz").status == 200)
        }
        // --default-environment production: /v1/… is production's, and it cannot be deleted.
        try await Self.withEnvironments(root, configure: { $0.defaultEnvironment = "production" }) { server in
            let direct = try await server.http.get("/v1/spec")
            #expect(direct.status == 200)
            #expect(direct.body == (try await server.http.get("/v1/environments/production/spec")).body)
            let status = try await server.http.get("/v1/status").json()
            #expect(status["environment"] as? String == "production")
            let refused = try await server.http.delete("/v1/environments/production")
            #expect(refused.status == 409, "\(refused.text)")
        }
        // livery serve DIR: one environment, 'default', at both prefixes.
        try await TestDaemon.with { server in
            let direct = try await server.http.get("/v1/spec")
            #expect(direct.body == (try await server.http.get("/v1/environments/default/spec")).body)
            let created = try await server.http.post("/v1/environments", json: #"{"name": "qa"}"#)
            #expect(created.status == 409 && created.text.contains("--environments ROOT"), "\(created.text)")
        }
    }
}
