import Foundation
import LiveryHTTP
import LiveryServer
import LiveryTesting
import Testing

/// OpenFeature's remote evaluation protocol over plain HTTP: the evaluation's fields, the
/// protocol's errors, the bulk answer's entity tag and 304, and the read key in both forms.
@Suite(.timeLimit(.minutes(1))) struct OFREPEndpointTests {
    static let look = """
        variables:
          colors: { accent: "#0a84ff" }
          sizes: { radius: 8 }
          elevation: { card: { type: DropShadow, color: "#1C1C1E", offset: [0, 2], radius: 4 } }
        themes:
          dark: { colors: { accent: "#64D2FF" } }
        specs:
          card.title:
            - { type: Set, values: { retries: 5 } }
        """

    static func daemon(_ body: (TestDaemon) async throws -> Void) async throws {
        let folder = try TemporarySpecFolder(prefix: "livery-ofrep")
        try folder.write("look.yaml", Self.look)
        try await TestDaemon.with(folder: folder) { try await body($0) }
    }

    static func evaluate(
        _ server: TestDaemon, _ key: String, _ body: String = "{}", headers: [(String, String)] = []
    ) async throws -> HTTP.Reply {
        try await server.http.post("/ofrep/v1/evaluate/flags/\(key)", json: body, token: .some(nil), headers: headers)
    }

    @Test func aVariableASetValueAndAThemeEvaluateWithTheirPlaceAndVersion() async throws {
        try await Self.daemon { server in
            let version = try #require(try await server.bundleETag())
            let accent = try await Self.evaluate(server, "colors.accent")
            #expect(accent.status == 200)
            let json = try accent.json()
            #expect(json["key"] as? String == "colors.accent")
            #expect(json["value"] as? String == "#0A84FF", "a colour is #RRGGBB")
            #expect(json["reason"] as? String == "STATIC")
            #expect(json["variant"] as? String == "default")
            let metadata = try #require(json["metadata"] as? [String: String])
            #expect(metadata == ["livery.version": version, "livery.source": "look.yaml:2:21"])

            let dark = try await Self.evaluate(server, "colors.accent", #"{"context": {"theme": "dark", "plan": 3}}"#)
            #expect(try dark.json()["value"] as? String == "#64D2FF")
            #expect(try dark.json()["reason"] as? String == "TARGETING_MATCH")
            #expect(try dark.json()["variant"] as? String == "dark")

            let retries = try await Self.evaluate(server, "card.title:retries")
            #expect(try retries.json()["value"] as? Int == 5)
            let shadow = try await Self.evaluate(server, "elevation.card")
            let object = try #require(try shadow.json()["value"] as? [String: Any])
            #expect(object["type"] as? String == "DropShadow" && object["radius"] as? Int == 4)
        }
    }

    @Test(arguments: [
        ("nope", "{}", 404, "FLAG_NOT_FOUND"),
        ("colors.accent", "{", 400, "PARSE_ERROR"),
        ("colors.accent", "[]", 400, "PARSE_ERROR"),
        // Not JSON (a leading zero) where a context belongs, and where nothing is read.
        ("colors.accent", #"{"context": 09}"#, 400, "PARSE_ERROR"),
        ("colors.accent", #"{"plan": 09, "context": {}}"#, 400, "PARSE_ERROR"),
        ("colors.accent", #"{"context": 3}"#, 400, "INVALID_CONTEXT"),
        ("colors.accent", #"{"context": {"theme": 3}}"#, 400, "INVALID_CONTEXT"),
        ("colors.accent", #"{"context": {"theme": "dusk"}}"#, 400, "INVALID_CONTEXT"),
        ("colors.accent", #"{"context": {"targetingKey": ""}}"#, 400, "TARGETING_KEY_MISSING"),
    ])
    func errorsAreTheProtocols(key: String, body: String, status: Int, code: String) async throws {
        try await Self.daemon { server in
            let reply = try await Self.evaluate(server, key, body)
            #expect(reply.status == status)
            let json = try reply.json()
            #expect(json["key"] as? String == key)
            #expect(json["errorCode"] as? String == code)
            #expect((json["errorDetails"] as? String)?.isEmpty == false)
        }
    }

    @Test func theBulkETagChangesWithTheVersionAndTheOutcomeAndMatchesGive304() async throws {
        try await Self.daemon { server in
            func bulk(_ body: String = "{}", ifNoneMatch: String? = nil) async throws -> HTTP.Reply {
                try await server.http.post(
                    "/ofrep/v1/evaluate/flags", json: body, token: .some(nil),
                    headers: ifNoneMatch.map { [("If-None-Match", $0)] } ?? [])
            }
            let first = try await bulk()
            #expect(first.status == 200)
            let flags = try #require(try first.json()["flags"] as? [[String: Any]])
            #expect(
                flags.compactMap { $0["key"] as? String }.sorted() == [
                    "card.title:retries", "colors", "colors.accent", "elevation", "elevation.card",
                    "elevation.card.color", "elevation.card.offset", "elevation.card.radius", "elevation.card.type",
                    "sizes", "sizes.radius",
                ])
            let etag = try #require(first.header("ETag"))
            #expect(try await bulk(ifNoneMatch: etag).status == 304)
            #expect(
                try await bulk(#"{"context": {"targetingKey": "a", "plan": "x"}}"#, ifNoneMatch: etag).status == 304,
                "attributes that change no outcome keep the tag")
            let dark = try await bulk(#"{"context": {"theme": "dark"}}"#, ifNoneMatch: etag)
            #expect(dark.status == 200 && dark.header("ETag") != etag)

            let published = try await server.http.publish([
                "look.yaml": Self.look.replacingOccurrences(of: "radius: 8", with: "radius: 9")
            ])
            #expect(try await server.serves(try #require(try published.json()["etag"] as? String)))
            let changed = try await bulk(ifNoneMatch: etag)
            #expect(changed.status == 200 && changed.header("ETag") != etag)
            #expect(try await bulk(#"{"context": {"theme": "dusk"}}"#).status == 400)
        }
    }

    @Test func theReadKeyIsABearerTokenOrAnXAPIKey() async throws {
        let folder = try TemporarySpecFolder(prefix: "livery-ofrep-key")
        try folder.write("look.yaml", Self.look)
        let key = "read-key-0123456789abcdef"
        let token = try BearerToken(key)
        try await TestDaemon.with(folder: folder, configure: { $0.readToken = token }) { server in
            #expect(try await Self.evaluate(server, "sizes.radius").status == 401)
            #expect(try await Self.evaluate(server, "sizes.radius", headers: [("X-API-Key", key)]).status == 200)
            #expect(
                try await Self.evaluate(server, "sizes.radius", headers: [("Authorization", "Bearer \(key)")]).status
                    == 200)
            #expect(try await Self.evaluate(server, "sizes.radius", headers: [("X-API-Key", "wrong")]).status == 401)
            let elsewhere = try await server.http.get("/v1/spec", headers: [("X-API-Key", key)])
            #expect(elsewhere.status == 401, "X-API-Key is the OFREP providers' form only")
        }
    }

    @Test func aCallerThatSendsLiveryClientIsCountedAsAnOFREPReader() async throws {
        try await Self.daemon { server in
            let identity = try ClientIdentity(name: "billing", instance: "pod-7", appVersion: "1.2")
            let header = ("Livery-Client", LiveryClientHeader(identity: identity, applied: nil).fieldValue)
            #expect(try await Self.evaluate(server, "sizes.radius", headers: [header]).status == 200)
            let fleet = try JSONDecoder().decode(FleetStatus.self, from: try await server.http.get("/v1/clients").body)
            #expect(fleet.clients == 1 && fleet.ofrepReaders == 1)
            #expect(try await server.http.get("/v1/spec", headers: [header]).status == 200)
            let after = try JSONDecoder().decode(FleetStatus.self, from: try await server.http.get("/v1/clients").body)
            #expect(after.clients == 1 && after.ofrepReaders == 0, "the client's last request counts")
        }
    }

    @Test func theEventStreamSaysRefetchWhenTheVersionSignalChanges() async throws {
        try await Self.daemon { server in
            let bulk = try await server.http.post("/ofrep/v1/evaluate/flags", json: "{}", token: .some(nil))
            let streams = try #require(try bulk.json()["eventStreams"] as? [[String: Any]])
            #expect(streams.first?["type"] as? String == "sse")
            let uri = try #require((streams.first?["endpoint"] as? [String: String])?["requestUri"])
            let before = try #require(try await server.bundleETag())
            let stream = try await EventStreamClient.connect(server.base + uri)
            defer { stream.close() }
            #expect(stream.status == 200 && stream.contentType == "text/event-stream")
            #expect(try await TestDaemon.eventually { stream.messages.first == .retry(1500) })
            #expect(Self.refetches(stream).isEmpty, "nothing changed since the provider's bulk evaluation")

            let published = try await server.http.publish(
                ["look.yaml": Self.look.replacingOccurrences(of: "radius: 8", with: "radius: 9")])
            let after = try #require(try published.json()["etag"] as? String)
            #expect(try await TestDaemon.eventually { Self.refetches(stream).count == 1 })
            let opaque = EntityTag.opaque(of: after)
            #expect(Self.refetches(stream).first?.id == opaque)
            #expect(Self.refetches(stream).first?.data == #"{"type":"refetchEvaluation","etag":"\#(opaque)"}"#)

            let resumed = try await EventStreamClient.connect(
                server.base + uri, lastEventID: EntityTag.opaque(of: before))
            defer { resumed.close() }
            #expect(
                try await TestDaemon.eventually { Self.refetches(resumed).count == 1 },
                "a missed change is sent at once")
            #expect(Self.refetches(resumed).first?.id == opaque)
        }
    }

    /// The protocol's events received so far (`event: message`).
    static func refetches(_ stream: EventStreamClient) -> [(id: String?, data: String)] {
        stream.messages.compactMap {
            if case .event(let id, "message", let data) = $0 { return (id, data) }
            return nil
        }
    }
}
