import LiveryHTTP
import Testing

/// The `Livery-Client` header: what clients send and what the daemon reads back.
@Suite struct LiveryClientHeaderTests {
    private static func identity(
        _ name: String = "shop", _ instance: String = "host-3:4121", _ version: String = "2.4.1"
    )
        throws -> ClientIdentity
    {
        try ClientIdentity(name: name, instance: instance, appVersion: version)
    }

    @Test func serializesAsAStructuredDictionary() throws {
        let header = LiveryClientHeader(
            identity: try Self.identity(), applied: #""9f3c0a1b2c3d4e5f""#, skipped: ["promo.banner", "card.badge"])
        #expect(
            header.fieldValue == #"name="shop", instance="host-3:4121", version="2.4.1", "#
                + #"applied="\"9f3c0a1b2c3d4e5f\"", skipped=("promo.banner" "card.badge")"#)
        #expect(try LiveryClientHeader(fieldValue: header.fieldValue) == header)
    }

    @Test func leavesOutWhatIsUnknown() throws {
        let header = LiveryClientHeader(identity: try Self.identity("a", "b", ""))
        #expect(header.fieldValue == #"name="a", instance="b""#)
        #expect(try LiveryClientHeader(fieldValue: header.fieldValue) == header)
    }

    @Test func nonASCIIGoesInADisplayString() throws {
        let header = LiveryClientHeader(identity: try Self.identity("café", "h\"1%"), skipped: ["ünï\tcode"])
        #expect(header.fieldValue.hasPrefix(#"name=%"caf%c3%a9", instance="h\"1%", version="2.4.1", "#))
        #expect(header.fieldValue.hasSuffix(#"skipped=(%"%c3%bcn%c3%af%09code")"#))
        #expect(try LiveryClientHeader(fieldValue: header.fieldValue) == header)
    }

    @Test func listsSixteenSkippedIdentifiersAndCountsTheRest() throws {
        let long = String(repeating: "x", count: ClientIdentity.maxFieldBytes + 1)
        let identifiers = (0..<20).map { "id\($0)" } + [long]
        let header = LiveryClientHeader(identity: try Self.identity(), skipped: identifiers)
        #expect(header.skipped == Array(identifiers.prefix(16)))
        #expect(header.moreSkipped == 5)
        #expect(header.fieldValue.hasSuffix(", more=5"))
        #expect(try LiveryClientHeader(fieldValue: header.fieldValue) == header)
    }

    @Test func theLargestHeaderFitsTheLimit() throws {
        let field = String(repeating: "é", count: ClientIdentity.maxFieldBytes / 2)
        let header = LiveryClientHeader(
            identity: try Self.identity(field, field, field), applied: field,
            skipped: Array(repeating: field, count: 40))
        #expect(header.fieldValue.utf8.count <= LiveryClientHeader.maxBytes)
        #expect(try LiveryClientHeader(fieldValue: header.fieldValue) == header)
    }

    @Test func readsWhatOtherSerializersMayAdd() throws {
        // Unknown members of every item type, parameters, tabs around commas, a repeated key.
        let text =
            "name=\"old\", ext=tok/en;p=1, n=-12.5, b=?0, bytes=:aGk=:, flag;x, "
            + "instance=\"i\";q=\"r\",\tname=\"shop\", skipped=(\"a\";k=1 \"b\")"
        let header = try LiveryClientHeader(fieldValue: text)
        #expect(header.identity.name == "shop")
        #expect(header.identity.instance == "i")
        #expect(header.skipped == ["a", "b"])
        #expect(header.applied == nil)
    }

    @Test(arguments: [
        ("", "Livery-Client:1:1: error: the header is empty"),
        (#"instance="i""#, "Livery-Client:1:1: error: 'name' is missing"),
        (#"name="a""#, "Livery-Client:1:1: error: 'instance' is missing"),
        (#"name="a", instance=7"#, "Livery-Client:1:11: error: 'instance' must be a string, not an integer"),
        (
            #"name="a", instance="b", skipped="c""#,
            "Livery-Client:1:25: error: 'skipped' must be an inner list of strings, not a string"
        ),
        (
            #"name="a", instance="b", skipped=(c)"#,
            "Livery-Client:1:25: error: 'skipped' must hold strings, not a token"
        ),
        (#"name="a", instance="b", more=-1"#, "Livery-Client:1:25: error: 'more' must be an integer of 0 or more"),
        (#"name="a"#, #"Livery-Client:1:8: error: expected '"' to end the string"#),
        (#"name="a\n""#, #"Livery-Client:1:9: error: expected '"' or '\' after '\'"#),
        ("name=\"é\"", "Livery-Client:1:7: error: a string holds printable ASCII only; use a display string (%\"…\")"),
        (#"name=%"%C3%A9""#, "Livery-Client:1:8: error: expected two lowercase hex digits after '%'"),
        (#"name=%"%ff""#, "Livery-Client:1:11: error: the display string is not valid UTF-8"),
        (#"name="a" instance="b""#, "Livery-Client:1:10: error: expected ',' between members"),
        (#"name="a","#, "Livery-Client:1:10: error: expected a member after ','"),
        (#"Name="a""#, "Livery-Client:1:1: error: expected a key (a lowercase letter or '*')"),
        (#"name=1234567890123456"#, "Livery-Client:1:22: error: expected 1 to 15 digits"),
        (#"name=("a""#, "Livery-Client:1:10: error: expected ' ' or ')' in an inner list"),
        (#"name=="#, "Livery-Client:1:6: error: expected a string, number, token, boolean or byte sequence"),
        (#"name="", instance="b""#, "Livery-Client: error: 'name' is empty"),
    ])
    func refusesBadValuesWithTheColumn(text: String, expected: String) {
        #expect(throws: ClientHeaderError.self) { try LiveryClientHeader(fieldValue: text) }
        do {
            _ = try LiveryClientHeader(fieldValue: text)
        } catch {
            #expect(error.description == expected)
        }
    }

    @Test func refusesOversizedValues() throws {
        let long = String(repeating: "a", count: ClientIdentity.maxFieldBytes + 1)
        #expect(throws: ClientHeaderError(column: 1, "'name' is 129 bytes, longer than 128")) {
            try LiveryClientHeader(fieldValue: "name=\"\(long)\", instance=\"b\"")
        }
        let many = (0...16).map { "\"\($0)\"" }.joined(separator: " ")
        #expect(throws: ClientHeaderError(column: 25, "'skipped' lists 17 identifiers, more than 16")) {
            try LiveryClientHeader(fieldValue: "name=\"a\", instance=\"b\", skipped=(\(many))")
        }
        let huge = "name=\"a\", instance=\"b\", " + String(repeating: "x=1, ", count: 2000) + "y=1"
        #expect(throws: ClientHeaderError(column: 8193, "the value is 10027 bytes, longer than 8192")) {
            try LiveryClientHeader(fieldValue: huge)
        }
        #expect(throws: ClientHeaderError(column: nil, "'instance' is 129 bytes, longer than 128")) {
            try ClientIdentity(name: "a", instance: long)
        }
    }

    @Test func fittingCutsAtACharacterBoundary() {
        let identity = ClientIdentity(fitting: String(repeating: "é", count: 100), instance: "")
        #expect(identity.name == String(repeating: "é", count: 64))
        #expect(identity.instance == "unknown")
    }
}
