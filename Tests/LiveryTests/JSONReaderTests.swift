import Foundation
import Testing

@testable import Livery

/// Reads `text` with `format` as the file `t.json`/`t.yaml` and returns the error's description,
/// or `nil` if it reads.
func readerError(_ text: String, _ format: SpecFormat, limits: ReaderLimits = .default) -> String? {
    readerError(Data(text.utf8), format, limits: limits)
}

func readerError(_ data: Data, _ format: SpecFormat, limits: ReaderLimits = .default) -> String? {
    do {
        _ = try SpecReader.read(data, format: format, source: "t.\(format.rawValue)", limits: limits)
        return nil
    } catch {
        return error.description
    }
}

@Suite struct JSONReaderTests {
    func read(_ text: String) throws -> SpecNode {
        try SpecReader.read(Data(text.utf8), format: .json, source: "t.json")
    }

    /// Containers nested in every order come out whole, each with its own values: the reader
    /// keeps the values of all open containers in one list until each closes.
    @Test func nestedContainersKeepTheirOwnValues() throws {
        let text = #"{"a":[1,{"b":[2,3],"c":{}},[]],"d":{"e":[[4],{"f":null}],"g":"h"},"i":[]}"#
        #expect(try read(text).canonicalJSON == text)
    }

    /// An object nested after many members of its parent may use the parent's keys, and its
    /// own duplicate names the first such key of that object, not of the parent.
    @Test func duplicateKeysInALargeNestedObject() {
        let members = (0..<20).map { #""k\#($0)": \#($0)"# }.joined(separator: ", ")
        let text = "{\(members),\n\"inner\": {\(members), \"k3\": 0}}"
        // Line 2 is `"inner": {` (10 columns), then "k0" … "k9" of 9 columns each with their ", ".
        let duplicate = 11 + members.utf8.count + 2
        let message = "duplicate key 'k3' (first at t.json:2:\(11 + 9 * 3))"
        #expect(readerError(text, .json) == "t.json:2:\(duplicate): error: \(message)")
    }

    /// A duplicate is found in an object of any size (below, at and past the number of members
    /// where the search turns from comparing key hashes to an index), whichever member it repeats.
    @Test(arguments: [1, 15, 16, 63, 64, 65, 200])
    func duplicateKeysInObjectsOfEverySize(size: Int) {
        let members = (0..<size).map { #""k\#($0)": 0"# }
        #expect(readerError("{" + members.joined(separator: ",\n") + "}", .json) == nil)
        for repeated in Set([0, size / 2, size - 1]) {
            let text = "{" + members.joined(separator: ",\n") + ",\n\"k\(repeated)\": 1}"
            let first = "t.json:\(repeated + 1):\(repeated == 0 ? 2 : 1)"
            #expect(
                readerError(text, .json)
                    == "t.json:\(size + 1):1: error: duplicate key 'k\(repeated)' (first at \(first))")
        }
    }

    static let badInputs: [(String, String)] = [
        ("", "1:1: error: empty document: expected a JSON value"),
        (" \n\t ", "1:1: error: empty document: expected a JSON value"),
        (#"{"a": 1, "a": 2}"#, "1:10: error: duplicate key 'a' (first at t.json:1:2)"),
        ("{\n  \"a\": 1,\n  \"b\": {},\n  \"a\": 2\n}", "4:3: error: duplicate key 'a' (first at t.json:2:3)"),
        (#"{"é": 1, "é": 2}"#, "1:10: error: duplicate key 'é' (first at t.json:1:2)"),
        // The same key written with an escape; an inner object's keys are its own.
        (#"{"a": 1, "\u0061": 2}"#, "1:10: error: duplicate key 'a' (first at t.json:1:2)"),
        (#"{"a": {"b": 1, "c": {"a": 0}}, "b": 2, "a": 3}"#, "1:40: error: duplicate key 'a' (first at t.json:1:2)"),
        ("[1, 2,]", "1:6: error: trailing comma before ']'"),
        (#"{"a": 1,}"#, "1:8: error: trailing comma before '}'"),
        ("// note\n{}", "1:1: error: comments are not allowed in JSON"),
        (#"{"a": 1 /* why */}"#, "1:9: error: comments are not allowed in JSON"),
        ("[NaN]", "1:2: error: non-finite number 'NaN' is not allowed"),
        ("-Infinity", "1:1: error: non-finite number '-Infinity' is not allowed"),
        ("[1e400]", "1:2: error: number 1e400 is out of range"),
        ("-1e999", "1:1: error: number -1e999 is out of range"),
        ("[01]", "1:2: error: number 01 has a leading zero"),
        ("-007", "1:1: error: number -007 has a leading zero"),
        ("1.", "1:3: error: expected a digit after the decimal point, found the end of the document"),
        ("[1e+]", "1:5: error: expected a digit in the exponent, found ']'"),
        ("- 1", "1:2: error: expected a digit after '-', found U+0020"),
        (#"["a\x"]"#, #"1:4: error: invalid escape '\x' in a string"#),
        (#"["\u12G4"]"#, #"1:3: error: invalid escape: '\u' must be followed by 4 hex digits"#),
        (#""\ud800 x""#, #"1:2: error: lone surrogate '\uD800' in a string"#),
        (#""\uDC00""#, #"1:2: error: lone surrogate '\uDC00' in a string"#),
        (#""\ud800\u0041""#, #"1:2: error: lone surrogate '\uD800' in a string"#),
        ("\"a\tb\"", "1:3: error: control character U+0009 must be escaped in a string"),
        (
            "[\"a\nb\"]",
            "1:2: error: unterminated string: the line ends before its closing quote (write a line break as \\n)"
        ),
        (#"["abc"#, "1:2: error: unterminated string"),
        ("{} x", "1:4: error: expected the end of the document after the JSON value, found 'x'"),
        ("[1] [2]", "1:5: error: expected the end of the document after the JSON value, found '['"),
        ("[1 2]", "1:4: error: expected ',' or ']' after an array element, found '2'"),
        (#"{"a": 1 "b": 2}"#, "1:9: error: expected ',' or '}' after an object member, found '\"'"),
        ("{a: 1}", "1:2: error: expected a string key, found 'a'"),
        ("{'a': 1}", "1:2: error: expected a string key, found '''"),
        (#"{"a" 1}"#, "1:6: error: expected ':' after the key 'a', found '1'"),
        (#"{"a": }"#, "1:7: error: expected a JSON value, found '}'"),
        ("[tru]", "1:2: error: expected a JSON value, found 'tru'"),
        ("True", "1:1: error: expected a JSON value, found 'True'"),
        ("nullx", "1:1: error: expected a JSON value, found 'nullx'"),
        ("[1,", "1:4: error: expected a JSON value, found the end of the document"),
        ("[\u{A0}1]", "1:2: error: expected a JSON value, found U+00A0"),
        ("\u{FEFF}[1, 2,]", "1:6: error: trailing comma before ']'"),
        ("[1,\r\n 2,\r\n]", "2:3: error: trailing comma before ']'"),
        ("[1,\r 2,\r]", "2:3: error: trailing comma before ']'"),
    ]

    @Test(arguments: badInputs)
    func rejectsWithExactMessage(input: String, expected: String) {
        #expect(readerError(input, .json) == "t.json:" + expected)
    }

    @Test func rejectsInvalidUTF8WithItsPlace() {
        let data = Data("{\"a\": \"x".utf8) + Data([0xC3, 0x28]) + Data("\"}".utf8)
        #expect(readerError(data, .json) == "t.json:1:9: error: invalid UTF-8 byte 0xC3; spec files must be UTF-8")
        let overlong = Data("[\n\"".utf8) + Data([0xC0, 0xAF]) + Data("\"]".utf8)
        #expect(readerError(overlong, .json) == "t.json:2:2: error: invalid UTF-8 byte 0xC0; spec files must be UTF-8")
        let surrogate = Data([0x22, 0xED, 0xA0, 0x80, 0x22])
        #expect(readerError(surrogate, .json) == "t.json:1:2: error: invalid UTF-8 byte 0xED; spec files must be UTF-8")
    }

    /// NULs and ill-formed bytes are found in one pass: whichever comes first is reported, at
    /// every offset, inside the runs of ASCII read eight bytes at a time as well as after them.
    @Test func reportsTheFirstNULOrInvalidByte() {
        func nul(at column: Int) -> String {
            "t.json:1:\(column): error: NUL byte: spec files are UTF-8 text, and this looks like a binary file"
        }
        let ascii = Array(#"["abcdefghijklmnopqrstuvwxyz0123456789"]"#.utf8)
        // From offset 2: a NUL as the second byte alone makes the file look like UTF-16.
        for offset in 2..<ascii.count {
            var bytes = ascii
            bytes[offset] = 0
            #expect(readerError(Data(bytes), .json) == nul(at: offset + 1))
            bytes[ascii.count - 1] = 0xFF
            #expect(
                readerError(Data(bytes), .json)
                    == (offset < ascii.count - 1
                        ? nul(at: offset + 1)
                        : "t.json:1:\(offset + 1): error: invalid UTF-8 byte 0xFF; spec files must be UTF-8"))
        }
        let invalidFirst = Data("[\"abcdefghijk".utf8) + Data([0xC3, 0x00]) + Data("\"]".utf8)
        #expect(
            readerError(invalidFirst, .json) == "t.json:1:14: error: invalid UTF-8 byte 0xC3; spec files must be UTF-8")
        let nulFirst = Data("[\"abc".utf8) + Data([0x00, 0xE9]) + Data("abcdefghijk\"]".utf8)
        #expect(readerError(nulFirst, .json) == nul(at: 6))
        #expect(readerError(Data("[\"é\", \"abcdefghijklmnop\"]".utf8), .json) == nil)
    }

    @Test func enforcesLimits() {
        let small = ReaderLimits(maxBytes: 6, maxDepth: 2, maxNodes: 3)
        #expect(
            readerError("[1, 2] ", .json, limits: small) == "t.json:1:1: error: file is 7 bytes; the limit is 6 bytes")
        #expect(readerError("[[1]]", .json, limits: small) == nil)
        #expect(
            readerError("[[[]]", .json, limits: small)
                == "t.json:1:3: error: document nests deeper than 2 levels (the depth limit)")
        #expect(readerError("[1,2]", .json, limits: small) == nil)
        #expect(
            readerError("[1,2,3]", .json, limits: ReaderLimits(maxNodes: 3))
                == "t.json:1:6: error: document has more than 3 nodes (the node limit)")
        // Zero bytes are not JSON: the size check must come before anything looks at them.
        #expect(
            readerError(Data(count: 52_428_800), .json)
                == "t.json:1:1: error: file is 52428800 bytes; the limit is 4194304 bytes")
    }

    @Test func errorsCarryTheirCodes() throws {
        func code(_ text: String) -> SpecError.Code? {
            do {
                _ = try read(text)
                return nil
            } catch let error as SpecError {
                return error.code
            } catch {
                return nil
            }
        }
        #expect(code(#"{"a":1,"a":2}"#) == .duplicateKey)
        #expect(code("1e400") == .invalidValue)
        #expect(code("NaN") == .invalidValue)
        #expect(code("[1,]") == .syntax)
        #expect(code(String(repeating: "[", count: 300)) == .limitExceeded)
    }

    @Test func typesNumbers() throws {
        let node = try read(
            "[0, -0, 42, -9223372036854775808, 9223372036854775807, 9223372036854775808, 1.5, 1e2, -0.0, 2E-3, 1e-400]")
        let values = try #require(node.sequenceItems).map(\.value)
        let expected: [SpecNode.Value] = [
            .int(0), .int(0), .int(42), .int(.min), .int(.max), .double(9_223_372_036_854_775_808), .double(1.5),
            .double(100), .double(-0.0), .double(0.002), .double(0),
        ]
        #expect(values.count == expected.count)
        for (value, want) in zip(values, expected) {
            #expect(SpecNode(value, at: node.location).canonicalJSON == SpecNode(want, at: node.location).canonicalJSON)
            #expect(value.isInt == want.isInt)
        }
    }

    @Test func readsStringsAndEscapes() throws {
        let node = try read(#"["plain", "tab\there", "\"\\\/\b\f\n\r\t", "\u00e9\uD83D\uDE00", "é😀", ""]"#)
        let strings = try #require(node.sequenceItems).map { $0.string }
        #expect(strings == ["plain", "tab\there", "\"\\/\u{8}\u{C}\n\r\t", "é😀", "é😀", ""])
    }

    @Test func locatesEveryNodeAndKey() throws {
        let text = """
            {
              "card": [ {"type": "CornerRadius", "radius": 8} ],
              "é": null, "b": true
            }
            """
        let node = try read(text)
        #expect(node.location.description == "t.json:1:1")
        let members = try #require(node.members)
        #expect(members.map(\.key) == ["card", "é", "b"])
        #expect(members.map(\.keyLocation.description) == ["t.json:2:3", "t.json:3:3", "t.json:3:14"])
        #expect(members.map(\.value.location.description) == ["t.json:2:11", "t.json:3:8", "t.json:3:19"])
        let trait = try #require(members[0].value.sequenceItems?.first)
        #expect(trait.location.description == "t.json:2:13")
        #expect(trait.members?.map(\.keyLocation.column) == [14, 38])
        #expect(trait["radius"]?.location.column == 48)
        #expect(node.canonicalJSON == #"{"card":[{"type":"CornerRadius","radius":8}],"é":null,"b":true}"#)
    }

    /// Columns count scalars once a string on the line held bytes outside ASCII, or an escape,
    /// and bytes again from the next line.
    @Test func columnsCountScalarsAfterAStringOutsideASCII() throws {
        let node = try read(
            #"""
            {"a": "ü😀", "b": 1, "c": "\u00fc", "d": 2,
             "e": 3, "f": "ü",
             "g": "ü\n", "h": 4}
            """#)
        let members = try #require(node.members)
        let keys = ["1:2", "1:13", "1:21", "1:36", "2:2", "2:10", "3:2", "3:14"]
        #expect(members.map(\.keyLocation.description) == keys.map { "t.json:" + $0 })
        #expect(members.map(\.value.location.column) == [7, 18, 26, 41, 7, 15, 7, 19])
        #expect(readerError(#"{"ü": 1, "b": x}"#, .json) == "t.json:1:15: error: expected a JSON value, found 'x'")
    }

    @Test func skipsTheByteOrderMarkForColumns() throws {
        let node = try read("\u{FEFF}{\"a\": 1}")
        #expect(node.location.description == "t.json:1:1")
        #expect(node["a"]?.location.description == "t.json:1:7")
    }

    @Test func refusesDeepNestingWithoutCrashing() async throws {
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        let expected = "t.json:1:257: error: document nests deeper than 256 levels (the depth limit)"
        #expect(await onSmallStackThread { readerError(deep, .json) } == expected)
        #expect(await Task.detached { readerError(deep, .json) }.value == expected)
        // The parser itself is iterative: with the limit raised it reads the whole thing.
        let node = try SpecReader.read(
            Data(deep.utf8), format: .json, source: "t.json", limits: ReaderLimits(maxDepth: 20_000))
        #expect(node.sequenceItems?.count == 1)
    }
}

/// Runs `body` on a new thread with a 512 KiB stack, the kind a thread pool might hand out.
func onSmallStackThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        let thread = Thread {
            continuation.resume(returning: body())
        }
        thread.stackSize = 512 * 1024
        thread.start()
    }
}

extension SpecNode {
    var sequenceItems: [SpecNode]? {
        if case .sequence(let items) = value { return items }
        return nil
    }
}

extension SpecNode.Value {
    var isInt: Bool {
        if case .int = self { return true }
        return false
    }
}
