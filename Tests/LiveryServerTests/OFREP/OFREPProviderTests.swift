import Foundation
import Livery
import LiveryHTTP
import LiveryServer
import LiveryTestSupport
import LiveryTesting
import Testing

/// The daemon read by the official OpenFeature Python SDK through its OFREP provider
/// (Tests/OFREP/evaluate.py; scripts/test installs both, pinned): what it resolves is what a
/// Swift target of the same spec gets.
@Suite(.timeLimit(.minutes(2))) struct OFREPProviderTests {
    static let look = """
        variables:
          colors: { accent: "#0A84FF", ink: "#1C1C1E" }
          sizes: { radius: 8, scale: 1.5 }
          copy: { title: Hello }
          switches: { compact: true }
          elevation: { card: { type: DropShadow, color: "@colors.ink", offset: [0, 2], radius: 4 } }
        themes:
          dark: { colors: { accent: "#64D2FF" }, sizes: { radius: 12 } }
        specs:
          card.title:
            - { type: BackgroundColor, color: "@colors.accent" }
            - { type: CornerRadius, radius: "@sizes.radius" }
            - { type: Hidden, hidden: "@switches.compact" }
            - { type: DropShadow, color: "@colors.ink", offset: [0, 2], radius: 4 }
            - { type: Set, values: { retries: 5, timeout: "@sizes.scale", label: "@copy.title" } }
        """

    /// One evaluation through the SDK: the flag's type, key and the caller's default.
    struct Request: Encodable {
        var type: String
        var key: String
        var `default`: JSONValue
        var targetingKey: String?
        var attributes: [String: String]?
    }

    /// A default of any of the SDK's types.
    enum JSONValue: Encodable {
        case string(String), int(Int), double(Double), bool(Bool), object

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .string(let value): try container.encode(value)
            case .int(let value): try container.encode(value)
            case .double(let value): try container.encode(value)
            case .bool(let value): try container.encode(value)
            case .object: try container.encode([String: String]())
            }
        }
    }

    /// The SDK's evaluation details of each request, as evaluate.py prints them.
    static func evaluate(_ base: String, _ requests: [Request], headers: [String] = []) async throws -> [[String: Any]]
    {
        let json = String(decoding: try JSONEncoder().encode(requests), as: UTF8.self)
        let script = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("OFREP/evaluate.py").path
        let python = try await ChildProcess.run("python3", [script, base, json] + headers)
        try #require(
            python.terminationStatus == 0,
            "python3 with openfeature-sdk and openfeature-provider-ofrep (scripts/test installs them): \(python.errors)"
        )
        return try python.output.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
    }

    /// `card.title` as a Swift target gets it under `theme`.
    static func swiftTarget(theme: String?) throws -> StyledBox {
        let provider = TraitsProvider()
        let box = StyledBox()
        provider.register(box, as: "card.title")
        try provider.load(Spec(yaml: look, source: "look.yaml"))
        if let theme { try provider.setTheme(theme) }
        return box
    }

    static func daemon(
        configure: @escaping @Sendable (inout DaemonConfiguration) -> Void = { _ in },
        _ body: (TestDaemon) async throws -> Void
    ) async throws {
        let folder = try TemporarySpecFolder(prefix: "livery-ofrep-python")
        try folder.write("look.yaml", Self.look)
        try await TestDaemon.with(folder: folder, configure: configure) { try await body($0) }
    }

    @Test func everyTypeEqualsWhatASwiftTargetGetsWithAndWithoutATheme() async throws {
        let plain = try Self.swiftTarget(theme: nil)
        let dark = try Self.swiftTarget(theme: "dark")
        try await Self.daemon { server in
            let version = try #require(try await server.bundleETag())
            let dusk = ["theme": "dark"]
            let results = try await Self.evaluate(
                server.base,
                [
                    Request(type: "string", key: "colors.accent", default: .string("")),
                    Request(type: "integer", key: "sizes.radius", default: .int(0)),
                    Request(type: "boolean", key: "switches.compact", default: .bool(false)),
                    Request(type: "object", key: "elevation.card", default: .object),
                    Request(type: "integer", key: "card.title:retries", default: .int(0)),
                    Request(type: "float", key: "card.title:timeout", default: .double(0)),
                    Request(type: "string", key: "card.title:label", default: .string("")),
                    Request(type: "string", key: "colors.accent", default: .string(""), attributes: dusk),
                    Request(type: "integer", key: "sizes.radius", default: .int(0), attributes: dusk),
                ])
            try #require(results.count == 9)
            #expect(results[0]["value"] as? String == plain.backgroundColor.description)
            #expect(results[0]["reason"] as? String == "STATIC" && results[0]["variant"] as? String == "default")
            #expect(results[0]["errorCode"] is NSNull)
            let metadata = try #require(results[0]["metadata"] as? [String: String])
            #expect(metadata["livery.version"] == version && metadata["livery.source"] == "look.yaml:2:21")
            #expect(results[1]["value"] as? Int == Int(plain.cornerRadius))
            #expect(results[2]["value"] as? Bool == plain.isHidden)
            let shadow = try #require(results[3]["value"] as? [String: Any])
            #expect(shadow["color"] as? String == plain.shadowColor.description)
            #expect(shadow["radius"] as? Double == plain.shadowRadius)
            #expect(shadow["offset"] as? [Int] == [Int(plain.shadowOffset.width), Int(plain.shadowOffset.height)])
            #expect(results[4]["value"] as? Int == plain.retries)
            #expect(results[5]["value"] as? Double == plain.timeout)
            #expect(results[6]["value"] as? String == plain.label)
            #expect(results[7]["value"] as? String == dark.backgroundColor.description)
            #expect(results[7]["reason"] as? String == "TARGETING_MATCH" && results[7]["variant"] as? String == "dark")
            #expect(results[8]["value"] as? Int == Int(dark.cornerRadius))
        }
    }

    @Test func anUnknownFlagAndATypeMismatchGiveTheDefaultWithTheirErrorCodes() async throws {
        try await Self.daemon { server in
            let results = try await Self.evaluate(
                server.base,
                [
                    Request(type: "string", key: "colors.nope", default: .string("fallback")),
                    Request(type: "boolean", key: "colors.accent", default: .bool(false)),
                    Request(type: "string", key: "colors.accent", default: .string(""), attributes: ["theme": "dusk"]),
                ])
            try #require(results.count == 3)
            #expect(
                results[0]["value"] as? String == "fallback" && results[0]["errorCode"] as? String == "FLAG_NOT_FOUND")
            #expect(results[1]["value"] as? Bool == false && results[1]["errorCode"] as? String == "TYPE_MISMATCH")
            #expect(results[2]["value"] as? String == "" && results[2]["errorCode"] as? String == "INVALID_CONTEXT")
        }
    }

    @Test func duringATenPercentRolloutExactlyTheFormulasKeysGetTheCandidate() async throws {
        let state = try TemporarySpecFolder(prefix: "livery-ofrep-python-state")
        try await Self.daemon(configure: { $0.stateDirectory = state.url }) { server in
            let candidate = Self.look.replacingOccurrences(of: "#0A84FF", with: "#FF9F0A")
            let body = try JSONSerialization.data(withJSONObject: ["files": ["look.yaml": candidate], "rollout": "10%"])
            let started = try await server.http.post("/v1/specs", json: String(decoding: body, as: UTF8.self))
            try #require(started.status == 200, "\(started.text)")
            let json = try started.json()
            let rollout = Rollout(
                id: try #require(json["id"] as? String), basisPoints: 1000,
                stable: json["stable"] as? String ?? "", candidate: json["candidate"] as? String ?? "")
            let keys = (0..<200).map { "instance-\($0)" }
            let results = try await Self.evaluate(
                server.base,
                keys.map { Request(type: "string", key: "colors.accent", default: .string(""), targetingKey: $0) })
            try #require(results.count == keys.count)
            let cohort = keys.filter(rollout.includes(instance:))
            #expect(!cohort.isEmpty && cohort.count < 60)
            for (key, result) in zip(keys, results) {
                let member = cohort.contains(key)
                #expect(result["value"] as? String == (member ? "#FF9F0A" : "#0A84FF"), "\(key)")
                #expect(result["reason"] as? String == (member ? "SPLIT" : "STATIC"), "\(key)")
                #expect(result["variant"] as? String == (member ? "candidate" : "default"), "\(key)")
            }
        }
    }

    @Test func afterAPushTheNextEvaluationGivesTheNewValue() async throws {
        try await Self.daemon { server in
            let key = [Request(type: "string", key: "colors.accent", default: .string(""))]
            #expect(try await Self.evaluate(server.base, key).first?["value"] as? String == "#0A84FF")
            let published = try await server.http.publish(
                ["look.yaml": Self.look.replacingOccurrences(of: "#0A84FF", with: "#30D158")])
            #expect(try await server.serves(try #require(try published.json()["etag"] as? String)))
            #expect(try await Self.evaluate(server.base, key).first?["value"] as? String == "#30D158")
        }
    }

    @Test func aReadKeyThroughTheHeadersFactoryIsAcceptedAndAWrongOneRefused() async throws {
        let key = "read-key-0123456789abcdef"
        let token = try BearerToken(key)
        try await Self.daemon(configure: { $0.readToken = token }) { server in
            let request = [Request(type: "integer", key: "sizes.radius", default: .int(-1))]
            for headers in [["X-API-Key: \(key)"], ["Authorization: Bearer \(key)"]] {
                let result = try await Self.evaluate(server.base, request, headers: headers)
                #expect(result.first?["value"] as? Int == 8, "\(headers)")
            }
            for headers in [["X-API-Key: wrong"], []] {
                let result = try await Self.evaluate(server.base, request, headers: headers)
                #expect(result.first?["value"] as? Int == -1, "\(headers)")
                #expect(result.first?["errorCode"] as? String == "GENERAL", "\(headers)")
                #expect(result.first?["errorMessage"] as? String == "unauthorized", "\(headers)")
            }
        }
    }

    @Test func aReadKeyForStagingIsAcceptedOnStagingAndRefusedOnTheDefaultEnvironment() async throws {
        let root = try TemporarySpecFolder(prefix: "livery-ofrep-python-environments")
        try root.write("default/look.yaml", Self.look)
        try root.write("staging/look.yaml", Self.look.replacingOccurrences(of: "#0A84FF", with: "#FF9F0A"))
        let state = try TemporarySpecFolder(prefix: "livery-ofrep-python-state")
        try await TestDaemon.with(
            folder: root,
            configure: {
                $0.environmentsRoot = root.url
                $0.requireReadKey = true
                $0.stateDirectory = state.url
            }
        ) { server in
            let key = try await server.addKey("staging-reader", scopes: ["read"], environments: ["staging"])
            let request = [Request(type: "string", key: "colors.accent", default: .string("none"))]
            for headers in [["X-API-Key: \(key)"], ["Authorization: Bearer \(key)"]] {
                let staging = try await Self.evaluate(
                    server.base + "/v1/environments/staging", request, headers: headers)
                #expect(staging.first?["value"] as? String == "#FF9F0A", "\(headers): \(staging)")
                let production = try await Self.evaluate(server.base, request, headers: headers)
                #expect(production.first?["value"] as? String == "none", "\(headers): \(production)")
                #expect(production.first?["errorCode"] as? String == "GENERAL", "\(headers)")
                #expect(production.first?["errorMessage"] as? String == "forbidden", "\(headers): \(production)")
            }
            // What the provider read as "forbidden": a 403 naming the scope and environment missing.
            let refused = try await server.http.post(
                "/ofrep/v1/evaluate/flags/colors.accent", json: "{}", token: .some(nil), headers: [("X-API-Key", key)])
            #expect(refused.status == 403, "\(refused.text)")
            let problem = try JSONDecoder().decode(Problem.self, from: refused.body)
            #expect(problem.kind == .missingScope && problem.scope == "read" && problem.environment == "default")
        }
    }
}
