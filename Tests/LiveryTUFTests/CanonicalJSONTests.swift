import Foundation
import LiveryTUF
import Testing

@Suite struct CanonicalJSONTests {
    private func canonical(_ json: String) throws -> String {
        let value = try JSONDecoder().decode(CanonicalJSON.self, from: Data(json.utf8))
        return String(decoding: value.bytes, as: UTF8.self)
    }

    /// What securesystemslib 1.6's `encode_canonical` writes for the same value: keys sorted by
    /// code point, no whitespace, only `\` and `"` escaped (the newline and `é` are written as is).
    @Test func writesWhatSecuresystemslibWrites() throws {
        let json = #"{"b": [1, true, null, false], "a": "x\"y\\z\n\u00e9", "\u00e9": {}, "Z": -5}"#
        #expect(
            try canonical(json) == "{\"Z\":-5,\"a\":\"x\\\"y\\\\z\n\u{e9}\",\"b\":[1,true,null,false],\"\u{e9}\":{}}")
    }

    /// python-tuf's compact serialisation is canonical JSON: a file it wrote reads back to its bytes.
    @Test func readsBackPythonTUFsBytes() throws {
        #expect(try canonical(Fixtures.pythonTUFTargets) == Fixtures.pythonTUFTargets)
    }

    @Test(arguments: ["1.5", "[0.25]", #"{"a": -2.5}"#])
    func refusesNumbersThatAreNotIntegers(json: String) {
        #expect(throws: DecodingError.self) { try canonical(json) }
    }

    /// Sorted by code point, as securesystemslib sorts: Swift's String order compares the
    /// normalised forms, which puts the Angstrom sign (U+212B, normalised to U+00C5) before "Æ"
    /// (U+00C6).
    @Test func sortsKeysByCodePointNotBySwiftsStringOrder() throws {
        let value = CanonicalJSON.object(["\u{212B}": .integer(1), "\u{C6}": .integer(2), "f": .integer(3)])
        #expect(String(decoding: value.bytes, as: UTF8.self) == "{\"f\":3,\"\u{C6}\":2,\"\u{212B}\":1}")
    }
}
