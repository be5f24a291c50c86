import Foundation
import Livery
import LiveryTesting
import NIOHTTP1
import Testing

/// `/v1/tokens-studio` driven with the requests Tokens Studio for Figma's Generic Versioned
/// Storage sends (`GenericVersionedStorage.ts`): its preflight, its create (`POST` with an empty
/// `options` set), its push (`PUT` of the whole storage) and its pull (`GET`), each with its
/// `Content-Type: application/json` and the storage's custom header carrying the push token.
/// (A program following the daemon applies a push: `TokensStudioFollowTests` in LiveryRemoteTests.)
@Suite(.timeLimit(.minutes(1))) struct TokensStudioEndpointTests {
    static let path = "/v1/tokens-studio"

    /// The plugin's custom header: the storage form's "headers" with the push token.
    static var headers: [(String, String)] {
        [("Content-Type", "application/json"), ("Authorization", "Bearer \(TestDaemon.token)")]
    }

    /// A push as `write()` builds it: version, updatedAt, every set, the themes.
    static func push(background: String, text: String = "#1c1c1e") -> String {
        """
        {"version":"2.10.0","updatedAt":"2026-11-26T20:00:00.000Z","values":{\
        "core":{"palette":{"$type":"color","white":{"$value":"#ffffff"},"ink":{"$value":"\(text)"},"brand":{"$value":"\(background)"}},\
        "space":{"$type":"spacing","pad":{"$value":"12px"}}},\
        "light":{"color":{"$type":"color","background":{"$value":"{palette.brand}"},"text":{"$value":"{palette.ink}"}}},\
        "dark":{"color":{"$type":"color","background":{"$value":"{palette.ink}"},"text":{"$value":"{palette.white}"}}}},\
        "$themes":[\
        {"id":"t1","name":"light","selectedTokenSets":{"core":"source","light":"enabled","dark":"disabled"}},\
        {"id":"t2","name":"dark","selectedTokenSets":{"core":"source","light":"disabled","dark":"enabled"}}]}
        """
    }

    static let card = """
        specs:
          card:
            - { type: BackgroundColor, color: "@color.background" }
            - { type: TextColor, color: "@color.text" }
            - { type: Padding, insets: "@space.pad" }
        """

    private static func folder() throws -> TemporarySpecFolder {
        let folder = try TemporarySpecFolder(prefix: "livery-studio")
        try folder.write("box.yaml", "specs:\n  box: []\n")
        return folder
    }

    @Test func aPushLandsAsTokenFilesAndAPullReturnsIt() async throws {
        try await TestDaemon.with(folder: try Self.folder()) { server in
            let preflight = try await server.http.send(
                .OPTIONS, Self.path,
                headers: [
                    ("Origin", "null"), ("Access-Control-Request-Method", "PUT"),
                    ("Access-Control-Request-Headers", "authorization,content-type"),
                ])
            #expect(preflight.status == 204)
            #expect(preflight.header("Access-Control-Allow-Origin") == "*")
            #expect(preflight.header("Access-Control-Allow-Headers") == "authorization,content-type")
            #expect(preflight.header("Access-Control-Allow-Methods") == "GET, PUT, POST")

            let create = try await server.http.send(
                .POST, Self.path,
                body: Data(
                    #"{"version": "2.10.0", "updatedAt": "2026-11-26T20:00:00.000Z", "values": {"options": {}}}"#.utf8),
                headers: Self.headers)
            #expect(create.status == 200, "\(create.text)")
            #expect(create.header("Access-Control-Allow-Origin") == "*")
            #expect(try create.json()["values"] as? [String: [String: String]] == ["options": [:]])
            #expect(FileManager.default.fileExists(atPath: server.folder.url("tokens/options.tokens.json").path))

            let pushed = try await server.http.send(
                .PUT, Self.path, body: Data(Self.push(background: "#ff0000").utf8), headers: Self.headers)
            #expect(pushed.status == 200, "\(pushed.text)")
            #expect(!FileManager.default.fileExists(atPath: server.folder.url("tokens/options.tokens.json").path))
            let core = try String(contentsOf: server.folder.url("tokens/core.tokens.json"), encoding: .utf8)
            #expect(core.contains(#""colorSpace": "srgb""#), "stored as the 2025.10 colour object")
            #expect(core.contains(#""$type": "dimension""#))
            #expect(FileManager.default.fileExists(atPath: server.folder.url("tokens/studio.resolver.json").path))

            let spec = try await server.http.put("/v1/specs/card.yaml", Self.card)
            #expect(spec.status == 201, "the pushed tokens are variables specs can use: \(spec.text)")

            let pull = try await server.http.send(.GET, Self.path, headers: Self.headers)
            #expect(pull.status == 200)
            let body = try pull.json()
            #expect((body["values"] as? [String: Any])?.keys.sorted() == ["core", "dark", "light"])
            #expect((body["$themes"] as? [[String: Any]])?.compactMap { $0["name"] as? String } == ["light", "dark"])
            #expect(body["version"] as? String == pull.header("ETag"))
            #expect(body["updatedAt"] is String)
        }
    }

    @Test func anInvalidPushIs422WithPlacesAndChangesNothing() async throws {
        try await TestDaemon.with(folder: try Self.folder()) { server in
            let bad = try await server.http.send(
                .PUT, Self.path, body: Data(Self.push(background: "{palette.nothing}").utf8), headers: Self.headers)
            #expect(bad.status == 422, "\(bad.text)")
            let errors = try #require(try bad.json()["errors"] as? [[String: Any]])
            #expect(
                errors.first?["file"] as? String == "tokens/core.tokens.json",
                "the alias to nothing is the brand colour of core")
            #expect(errors.first?["code"] as? String == "unresolvedReference")
            #expect((errors.first?["line"] as? Int ?? 0) > 1)
            #expect(!FileManager.default.fileExists(atPath: server.folder.url("tokens").path))
        }
    }

    @Test func aLegacyFormatPushIs400SayingSoAndWhatIsExpected() async throws {
        try await TestDaemon.with(folder: try Self.folder()) { server in
            let legacy = """
                {"version":"2.10.0","updatedAt":"2026-11-26T20:00:00.000Z","values":{"core":{"palette":\
                {"brand":{"value":"#ff0000","type":"color"}}}},"$themes":[]}
                """
            let reply = try await server.http.send(.PUT, Self.path, body: Data(legacy.utf8), headers: Self.headers)
            #expect(reply.status == 400, "\(reply.text)")
            let detail = try #require(try reply.json()["detail"] as? String)
            #expect(detail.contains("set 'core' is in Tokens Studio's legacy token format (token 'palette.brand'"))
            #expect(detail.contains(#"Livery reads the W3C DTCG format, {"$value": …, "$type": …}"#))
            #expect(!FileManager.default.fileExists(atPath: server.folder.url("tokens").path))

            // In the format, groups may be named "value" and "type": not the legacy format.
            let groups =
                #"{"values":{"core":{"value":{"$type":"number","n":{"$value":1}},"type":{"m":{"$type":"number","$value":2}}}}}"#
            let accepted = try await server.http.send(.PUT, Self.path, body: Data(groups.utf8), headers: Self.headers)
            #expect(accepted.status == 200, "\(accepted.text)")
        }
    }

    @Test func ifMatchIsTheBundleETagAndCreateLeavesExistingStorage() async throws {
        try await TestDaemon.with(folder: try Self.folder()) { server in
            let stale = try await server.http.send(
                .PUT, Self.path, body: Data(Self.push(background: "#ff0000").utf8),
                headers: Self.headers + [("If-Match", #""stale""#)])
            #expect(stale.status == 412)
            let current = try #require(try await server.bundleETag())
            let fresh = try await server.http.send(
                .PUT, Self.path, body: Data(Self.push(background: "#ff0000").utf8),
                headers: Self.headers + [("If-Match", current)])
            #expect(fresh.status == 200, "\(fresh.text)")
            let create = try await server.http.send(
                .POST, Self.path, body: Data(#"{"values": {"options": {}}}"#.utf8), headers: Self.headers)
            #expect(create.status == 200)
            #expect((try create.json()["values"] as? [String: Any])?.keys.sorted() == ["core", "dark", "light"])
            let anonymous = try await server.http.send(
                .PUT, Self.path, body: Data(Self.push(background: "#ff0000").utf8),
                headers: [("Content-Type", "application/json")])
            #expect(anonymous.status == 401)
            #expect(anonymous.header("Access-Control-Allow-Origin") == "*", "the plugin can read the refusal")
        }
    }

    @Test(arguments: [
        #"{"values": {"core": {}}, "$themes": {}}"#, #"{"values": {"core": 3}}"#, #"{"version": 2, "values": {}}"#,
        #"{"sets": {}}"#,
    ])
    func aBodyThatIsNotTheStorageIs400(body: String) async throws {
        try await TestDaemon.with(folder: try Self.folder()) { server in
            let reply = try await server.http.send(.PUT, Self.path, body: Data(body.utf8), headers: Self.headers)
            #expect(reply.status == 400, "\(reply.text)")
            #expect((try reply.json()["detail"] as? String)?.hasPrefix("the body must be Tokens Studio's") == true)
        }
    }
}
