import Foundation
import LiveryTesting
import NIOHTTP1
import Testing

/// `GET /v1/tokens`: the variables as a design tokens document, the base ones or a theme's.
@Suite(.timeLimit(.minutes(1))) struct TokensEndpointTests {
    static let look = """
        variables: { colors: { accent: "#0A84FF", ink: "#1C1C1E" } }
        themes: { dark: { colors: { accent: "#64D2FF" } } }
        specs: {}
        """

    static func hex(_ document: [String: Any], _ name: String) -> String? {
        let token = (document["colors"] as? [String: Any])?[name] as? [String: Any]
        return (token?["$value"] as? [String: Any])?["hex"] as? String
    }

    @Test func aThemesVariablesAreServedAndAnUnknownThemeIs404() async throws {
        let folder = try TemporarySpecFolder(prefix: "livery-tokens")
        try folder.write("look.yaml", Self.look)
        try await TestDaemon.with(folder: folder) { server in
            let base = try await server.http.send(.GET, "/v1/tokens")
            #expect(base.status == 200)
            #expect(Self.hex(try base.json(), "accent") == "#0a84ff")
            let dark = try await server.http.send(.GET, "/v1/tokens?theme=dark")
            #expect(dark.status == 200)
            #expect(Self.hex(try dark.json(), "accent") == "#64d2ff")
            #expect(Self.hex(try dark.json(), "ink") == "#1c1c1e")
            #expect(dark.header("ETag") != nil && dark.header("ETag") != base.header("ETag"))
            let unknown = try await server.http.send(.GET, "/v1/tokens?theme=dusk")
            #expect(unknown.status == 404)
            #expect((try unknown.json()["detail"] as? String)?.contains("unknown theme 'dusk'") == true)
        }
    }
}
