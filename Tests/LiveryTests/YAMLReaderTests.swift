import Foundation
import Testing

@testable import Livery

@Suite struct YAMLReaderTests {
    /// Shapes Fuzz/FuzzSpecFolder found (see Fuzz/README.md): mappings that repeat plain keys,
    /// mapping keys (`? ` keys), empty keys and nested explicit keys. Each read names the first
    /// problem in document order, the same one every time.
    @Test func repeatedKeysOfDifferentKindsGetTheSameErrorEveryTime() {
        let text = "spegs:\n? crpegs:s:\n? crpegs:\n? cr\na:adius:s:\n? crpegs:\n? cr\na:adius:s:\n? crpegs:\n"
        let errors = Set((0..<50).map { _ in readerError(text, .yaml) })
        #expect(errors == ["t.yaml:2:3: error: expected a string key, found a mapping"])
        // And with empty explicit keys (`? ` alone) among the repeats: a second finding.
        let emptyKeys =
            "pegs:\n? cr\na:adDus:s:\n? crpegs:gs:\n? cr\na:adDus:s:\n? crpegs:\n? \n? crpegs::s\n? \n? crpegs::s:\n? crpegs:\n?:\n"
        #expect(
            Set((0..<50).map { _ in readerError(emptyKeys, .yaml) }) == [
                "t.yaml:4:3: error: expected a string key, found a mapping"
            ])
        #expect(
            readerError("k: 1\n? \n: a\n? \n: b\nk: 2\n", .yaml)
                == "t.yaml:2:2: error: expected a string key, found an empty key")
        // Nested explicit keys (`? ? …`) repeated: the third shape the fuzzer found.
        let nested = "a: 1\n? ? crpegs:s:\n? ? crpegs:s:\na: 2\n"
        #expect(
            Set((0..<50).map { _ in readerError(nested, .yaml) }) == [
                "t.yaml:2:3: error: expected a string key, found a mapping"
            ])
        let scalarsFirst = "k: 1\nk: 2\n? {x: 1}\n: a\n? {x: 1}\n: b\n"
        #expect(
            Set((0..<50).map { _ in readerError(scalarsFirst, .yaml) }) == [
                "t.yaml:2:1: error: duplicate key 'k' (first at t.yaml:1:1)"
            ])
    }

    func read(_ text: String, limits: ReaderLimits = .default) throws -> SpecNode {
        try SpecReader.read(Data(text.utf8), format: .yaml, source: "t.yaml", limits: limits)
    }

    static let badInputs: [(String, String)] = [
        ("", "1:1: error: empty document: expected a YAML value"),
        ("# only a comment\n\n", "1:1: error: empty document: expected a YAML value"),
        ("a: 1\nb: 2\na: 3\n", "3:1: error: duplicate key 'a' (first at t.yaml:1:1)"),
        ("specs:\n  card: []\n  card: {}\n", "3:3: error: duplicate key 'card' (first at t.yaml:2:3)"),
        ("{a: 1, b: 2, a: 3}", "1:14: error: duplicate key 'a' (first at t.yaml:1:2)"),
        ("- {é: 1, é: 2}\n", "1:10: error: duplicate key 'é' (first at t.yaml:1:4)"),
        ("'a': 1\n'a': 2\n'a': 3\n", "2:1: error: duplicate key 'a' (first at t.yaml:1:1)"),
        ("8: x\n\"8\": y\n", "2:1: error: duplicate key '8' (first at t.yaml:1:1)"),
        // Several repeated keys on one line: the first repeat in document order, its places in
        // the text as written.
        ("{b: 1, a: 2, b: 3, a: 4, b: 5}", "1:14: error: duplicate key 'b' (first at t.yaml:1:2)"),
        ("{a: 1, b: 2, a: 3, b: 4, a: 5}", "1:14: error: duplicate key 'a' (first at t.yaml:1:2)"),
        (
            "a: 1\n\tb: 2\n",
            "2:1: error: invalid YAML: found a tab character that violates indentation (while scanning a plain scalar at t.yaml:1:4)"
        ),
        (
            "a: @b\n",
            "1:4: error: invalid YAML: found character '@' that cannot start any token (while scanning for the next token)"
        ),
        (
            "a: [1, 2\n",
            "2:1: error: invalid YAML: did not find expected ',' or ']' (while parsing a flow sequence at t.yaml:1:4)"
        ),
        (
            "a: \"open\n",
            "2:1: error: invalid YAML: found unexpected end of stream (while scanning a quoted scalar at t.yaml:1:4)"
        ),
        ("a: b: c\n", "1:5: error: invalid YAML: mapping values are not allowed in this context"),
        (
            "- a\nb: c\n",
            "2:1: error: invalid YAML: did not find expected '-' indicator (while parsing a block collection at t.yaml:1:1)"
        ),
        ("a: 1\n---\nb: 2\n", "2:1: error: found a second YAML document; a spec file holds exactly one"),
        ("a: *nope\n", "1:4: error: invalid YAML: undefined alias '*nope'"),
        ("key: \u{1}\n", "1:6: error: invalid YAML: control characters are not allowed (U+0001)"),
        ("a: .nan\n", "1:4: error: non-finite number '.nan' is not allowed"),
        ("a: [-.inf]\n", "1:5: error: non-finite number '-.inf' is not allowed"),
        ("a: 1e400\n", "1:4: error: number 1e400 is out of range"),
        ("a: 99999999999999999999\n", "1:4: error: number 99999999999999999999 is out of range"),
        ("a: 0x8000000000000000\n", "1:4: error: number 0x8000000000000000 is out of range"),
        ("a: !!int abc\n", "1:4: error: 'abc' is not a valid !!int"),
        ("a: !!bool yes\n", "1:4: error: 'yes' is not a valid !!bool"),
        (
            "a: !foo bar\n",
            "1:4: error: unsupported tag '!foo'; only !!str, !!int, !!float, !!bool, !!null, !!seq and !!map are allowed"
        ),
        (
            "a: !!binary aGk=\n",
            "1:4: error: unsupported tag '!!binary'; only !!str, !!int, !!float, !!bool, !!null, !!seq and !!map are allowed"
        ),
        ("- !!map [1]\n", "1:3: error: tag '!!map' cannot be used on a list"),
        ("a: !!seq x\n", "1:4: error: tag '!!seq' cannot be used on a scalar"),
        ("[1]: x\n", "1:1: error: expected a string key, found a list"),
        ("? {a: 1}\n: x\n", "1:3: error: expected a string key, found a mapping"),
        ("\u{FEFF}a: 1\na: 2\n", "2:1: error: duplicate key 'a' (first at t.yaml:1:1)"),
        (
            "a: 1\r\nb: [\r\n  x,,\r\n]\r\n",
            "3:5: error: invalid YAML: did not find expected node content (while parsing a flow node)"
        ),
    ]

    @Test(arguments: badInputs)
    func rejectsWithExactMessage(input: String, expected: String) {
        #expect(readerError(input, .yaml) == "t.yaml:" + expected)
    }

    @Test func rejectsInvalidUTF8WithItsPlace() {
        let data = Data("a: 1\nb: caf".utf8) + Data([0xE9]) + Data("\n".utf8)
        #expect(readerError(data, .yaml) == "t.yaml:2:7: error: invalid UTF-8 byte 0xE9; spec files must be UTF-8")
    }

    /// The core schema's typing of plain scalars, and what quoting and tags change.
    static let typing: [(String, String)] = [
        ("~", "null"), ("null", "null"), ("Null", "null"), ("NULL", "null"), ("", "null"), ("nULL", #""nULL""#),
        ("true", "true"), ("True", "true"), ("TRUE", "true"), ("false", "false"), ("FALSE", "false"),
        ("yes", #""yes""#), ("no", #""no""#), ("on", #""on""#), ("off", #""off""#), ("y", #""y""#),
        ("42", "42"), ("-17", "-17"), ("+8", "8"), ("007", "7"), ("0o17", "15"), ("0x1F", "31"), ("0o19", #""0o19""#),
        ("0b101", #""0b101""#), ("1_000", #""1_000""#), ("9223372036854775807", "9223372036854775807"),
        ("1.5", "1.5"), ("-.5", "-0.5"), ("5.", "5.0"), ("1e3", "1000.0"), ("+1.5E-2", "0.015"), ("1e-400", "0.0"),
        ("Inter", #""Inter""#), ("#0A84FF", "null"), ("\"#0A84FF\"", ##""#0A84FF""##), ("'42'", #""42""#),
        ("\"true\"", #""true""#), ("!!str 42", #""42""#), ("!!int \"42\"", "42"), ("!!float 1", "1.0"),
        ("!!bool True", "true"), ("!!null ~", "null"), ("! 42", #""42""#), ("2001-12-14", #""2001-12-14""#),
        ("@colors.accent", "error"), ("\"@colors.accent\"", #""@colors.accent""#),
        ("~alpha(@c, 0.3)", #""~alpha(@c, 0.3)""#),
        ("|\n  two\n  lines", #""two\nlines\n""#), (">-\n  folded\n  text", #""folded text""#),
    ]

    @Test(arguments: typing)
    func typesScalarsByTheCoreSchema(scalar: String, json: String) throws {
        let text = "value: \(scalar)\n"
        if json == "error" {
            #expect(readerError(text, .yaml) != nil)
            return
        }
        let node = try read(text)
        #expect(node["value"]?.canonicalJSON == json)
    }

    @Test func keysAreTheirText() throws {
        let node = try read("8: a\ntrue: b\nnull: c\n0x10: d\n'quoted': e\n!!str 9: f\n")
        #expect(node.members?.map(\.key) == ["8", "true", "null", "0x10", "quoted", "9"])
        #expect(readerError("!!int x: 1\n", .yaml) == "t.yaml:1:1: error: 'x' is not a valid !!int")
        #expect(readerError("? \n: 1\n", .yaml) == "t.yaml:1:2: error: expected a string key, found an empty key")
    }

    @Test func locatesEveryNodeAndKey() throws {
        let text = """
            specs:
              card:
                - { type: CornerRadius, radius: 8 }
              é: [a, "b"]
            """
        let node = try read(text)
        #expect(node.location.description == "t.yaml:1:1")
        let specs = try #require(node["specs"])
        #expect(specs.location.description == "t.yaml:2:3")
        #expect(specs.members?.map(\.keyLocation.description) == ["t.yaml:2:3", "t.yaml:4:3"])
        let trait = try #require(specs["card"]?.sequenceItems?.first)
        #expect(trait.location.description == "t.yaml:3:7")
        #expect(trait.members?.map(\.keyLocation.column) == [9, 29])
        #expect(trait["radius"]?.location.description == "t.yaml:3:37")
        #expect(specs["é"]?.sequenceItems?.map(\.location.column) == [7, 10])
    }

    @Test func jsonAndYAMLOfOneDocumentHaveTheSameContent() throws {
        let yaml = """
            include: [palette.yaml]
            variables:
              colors: { accent: "#0A84FF", text: "#1C1C1E" }
            specs:
              card:
                - { type: BackgroundColor, color: "@colors.accent" }
                - type: DropShadow
                  offset: { width: 0, height: 2.5 }
                  opacity: 0.5
                  enabled: true
                  note: ~
              card.title: []
            """
        let json = """
            {"include": ["palette.yaml"],
             "variables": {"colors": {"accent": "#0A84FF", "text": "#1C1C1E"}},
             "specs": {"card": [{"type": "BackgroundColor", "color": "@colors.accent"},
                                {"type": "DropShadow", "offset": {"width": 0, "height": 2.5},
                                 "opacity": 0.5, "enabled": true, "note": null}],
                       "card.title": []}}
            """
        let fromYAML = try read(yaml)
        let fromJSON = try SpecReader.read(Data(json.utf8), format: .json, source: "t.json")
        #expect(fromYAML.hasSameContent(as: fromJSON))
        #expect(fromYAML.canonicalJSON == fromJSON.canonicalJSON)
    }

    @Test func expandsAliasesButStopsAnAliasBomb() throws {
        let node = try read("base: &b {radius: 8}\ncard: *b\n")
        #expect(node["card"]?.canonicalJSON == #"{"radius":8}"#)
        var bomb = "a: &a [x, x, x, x, x, x, x, x, x, x]\n"
        for level in 1...9 {
            let previous = Character(Unicode.Scalar(UInt8(ascii: "a") + UInt8(level - 1)))
            let name = Character(Unicode.Scalar(UInt8(ascii: "a") + UInt8(level)))
            bomb += "\(name): &\(name) [" + Array(repeating: "*\(previous)", count: 10).joined(separator: ", ") + "]\n"
        }
        // An alias is never a key, whatever it names (here `*e`, a list of 111,111 values, within
        // the limit); a key that is a list is refused as a list before anything in it is read.
        let wide = bomb.split(separator: "\n").prefix(5).joined(separator: "\n") + "\n"
        let keyMessage = "expected a string key, found an alias (aliases cannot be used in mapping keys)"
        #expect(readerError(wide + "k: {*e : 1}\n", .yaml) == "t.yaml:6:5: error: " + keyMessage)
        #expect(readerError(wide + "*e: 1\n", .yaml) == "t.yaml:6:1: error: " + keyMessage)
        #expect(
            readerError(wide + "k: {[x, *e]: 1}\n", .yaml) == "t.yaml:6:5: error: expected a string key, found a list")
        #expect(readerError(wide + "? *e\n: 1\n", .yaml) == "t.yaml:6:3: error: " + keyMessage)
        #expect(readerError(wide + "k: *e\n", .yaml) == nil)
        #expect(readerError("k: &k 1\nlist: [*k, {a: *k}]\nm: {*k: 1}\n", .yaml) == "t.yaml:3:5: error: " + keyMessage)
        // Refused at the alias whose expansion passes the limit: the 8th `*c` of line 4 brings
        // the count from 9,012 to 10,123.
        let error = readerError(bomb, .yaml, limits: ReaderLimits(maxNodes: 10_000))
        #expect(
            error
                == "t.yaml:4:36: error: document expands to more than 10000 nodes (the node limit; a YAML alias bomb?)")
    }

    /// Ten levels of ten aliases: 10^10 values if expanded. Each anchor's size is known when it
    /// closes, so the reader refuses the alias that passes the limit without expanding it.
    @Test(.timeLimit(.minutes(1))) func refusesABillionLaughsAtTheAliasThatPassesTheLimit() {
        var bomb = "a: &a [x, x, x, x, x, x, x, x, x, x]\n"
        for level in 1...9 {
            let previous = Character(Unicode.Scalar(UInt8(ascii: "a") + UInt8(level - 1)))
            let name = Character(Unicode.Scalar(UInt8(ascii: "a") + UInt8(level)))
            bomb += "\(name): &\(name) [" + Array(repeating: "*\(previous)", count: 10).joined(separator: ", ") + "]\n"
        }
        // 123,457 values before line 6's `*e`s, 111,111 each: the 8th passes 1,000,000.
        #expect(
            readerError(bomb, .yaml)
                == "t.yaml:6:36: error: document expands to more than 1000000 nodes (the node limit; a YAML alias bomb?)"
        )
        // An alias counts exactly the values it stands for: 1 + (1 + 2) + 1 + 3 + 3 = 11.
        let twice = "a: &a [1, 2]\nb: [*a, *a]\n"
        #expect(readerError(twice, .yaml, limits: ReaderLimits(maxNodes: 11)) == nil)
        #expect(
            readerError(twice, .yaml, limits: ReaderLimits(maxNodes: 10))
                == "t.yaml:2:9: error: document expands to more than 10 nodes (the node limit; a YAML alias bomb?)")
    }

    @Test func enforcesSizeAndDepthLimits() {
        #expect(
            readerError(Data(count: 52_428_800), .yaml)
                == "t.yaml:1:1: error: file is 52428800 bytes; the limit is 4194304 bytes")
        let limits = ReaderLimits(maxDepth: 3)
        #expect(readerError("a: {b: [c]}\n", .yaml, limits: limits) == nil)
        #expect(
            readerError("a: {b: [[c]]}\n", .yaml, limits: limits)
                == "t.yaml:1:9: error: document nests deeper than 3 levels (the depth limit)")
        #expect(
            readerError("a:\n  b:\n    - c:\n        d\n", .yaml, limits: limits)
                == "t.yaml:3:7: error: document nests deeper than 3 levels (the depth limit)")
        // Block and flow nesting mixed, and brackets inside quotes, which are no nesting.
        var mixed = ""
        for level in 0..<10 {
            let indent = String(repeating: " ", count: 2 * level)
            mixed += level.isMultiple(of: 2) ? indent + "k\(level):\n" : indent + "- # item\n"
        }
        mixed += String(repeating: " ", count: 20) + "leaf: [x, {y: \"[[[\"}]\n"
        #expect(readerError(mixed, .yaml, limits: ReaderLimits(maxDepth: 13)) == nil)
        #expect(
            readerError(mixed, .yaml, limits: ReaderLimits(maxDepth: 12))
                == "t.yaml:11:31: error: document nests deeper than 12 levels (the depth limit)")
        let indentless = "a:\n- b:\n  - c:\n    - d: |\n        [[[[\n    - 'it''s [['\n"
        #expect(readerError(indentless, .yaml, limits: ReaderLimits(maxDepth: 7)) == nil)
        #expect(
            readerError(indentless, .yaml, limits: ReaderLimits(maxDepth: 6))
                == "t.yaml:4:7: error: document nests deeper than 6 levels (the depth limit)")
        // Aliases nest a tree deeper than its text: refused at the alias that does it.
        #expect(
            readerError("x: &x [[1]]\ny: [*x]\n", .yaml, limits: limits)
                == "t.yaml:2:5: error: document nests deeper than 3 levels (the depth limit)")
        #expect(readerError("x: &x [[1]]\ny: *x\n", .yaml, limits: limits) == nil)
    }

    /// Far deeper than the limit and than any small stack holds; the
    /// indented shapes are as deep as 4 MiB of indentation allows.
    static let deepDocuments: [(String, String)] = {
        let flow = "a: " + String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000) + "\n"
        let compact = String(repeating: "- ", count: 10_000) + "x\n"
        let block = (0..<2_500).map { String(repeating: " ", count: $0) + "k:\n" }.joined()
        let indentless = (0..<1_700).map { String(repeating: " ", count: 2 * $0) + "- k:\n" }.joined()
        return [
            // The 257th level: the 256th `[`, `- `, indented key; the 129th indentless `- `.
            (flow, "t.yaml:1:259: error: document nests deeper than 256 levels (the depth limit)"),
            (compact, "t.yaml:1:513: error: document nests deeper than 256 levels (the depth limit)"),
            (block, "t.yaml:257:257: error: document nests deeper than 256 levels (the depth limit)"),
            (indentless, "t.yaml:129:257: error: document nests deeper than 256 levels (the depth limit)"),
        ]
    }()

    @Test(arguments: deepDocuments)
    func refusesDeepNestingOnSmallStacks(document: String, expected: String) async {
        #expect(await onSmallStackThread { readerError(document, .yaml) } == expected)
        #expect(await Task.detached { readerError(document, .yaml) }.value == expected)
    }

    @Test func readsTheLimitDepthOnASmallStack() async {
        let depth = ReaderLimits.default.maxDepth
        let flow = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        #expect(await onSmallStackThread { readerError(flow, .yaml) } == nil)
        let over = "[" + flow + "]"
        #expect(
            await onSmallStackThread { readerError(over, .yaml) }
                == "t.yaml:1:257: error: document nests deeper than 256 levels (the depth limit)")
    }
}
