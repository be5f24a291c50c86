import Foundation
import Testing

@testable import Livery

/// Keys as the YAML reader checks them: one pass, so the first problem in document order is the
/// one named, the same one on every read.
@Suite struct YAMLReaderKeyTests {
    /// Each input with the one error it must produce, whatever the order of any hash table.
    static let firstProblems: [(String, String)] = [
        // The first repeat in the text, not the first key in any sorted order.
        ("a: 1\nb: 2\nb: 3\na: 4\n", "3:1: error: duplicate key 'b' (first at t.yaml:2:1)"),
        // A nested mapping's repeat comes before a later one in its parent.
        ("outer:\n  x: 1\n  x: 2\ny: 1\ny: 2\n", "3:3: error: duplicate key 'x' (first at t.yaml:2:3)"),
        ("y: 1\ny: 2\nouter:\n  x: 1\n  x: 2\n", "2:1: error: duplicate key 'y' (first at t.yaml:1:1)"),
        // Explicit keys repeat like plain ones, and a plain key repeats an explicit one.
        ("? a\n: 1\n? a\n: 2\n", "3:3: error: duplicate key 'a' (first at t.yaml:1:3)"),
        ("? a\n: 1\na: 2\n", "3:1: error: duplicate key 'a' (first at t.yaml:1:3)"),
        // Nested explicit keys are mappings as keys: the first one is refused where it starts,
        // before or after a repeated plain key, whichever comes first.
        ("? ? k\n  : v\n: 1\nb: 1\nb: 2\n", "1:3: error: expected a string key, found a mapping"),
        ("b: 1\nb: 2\n? ? k\n  : v\n: 1\n", "2:1: error: duplicate key 'b' (first at t.yaml:1:1)"),
        ("? ? crpegs:s:\n? ? crpegs:s:\n? ? crpegs:s:\n", "1:3: error: expected a string key, found a mapping"),
        ("? [a]\n: 1\n? [a]\n: 2\n", "1:3: error: expected a string key, found a list"),
        // Empty keys: a quoted empty key is a name (and can repeat); a plain one is refused.
        ("'': 1\n\"\": 2\n", "2:1: error: duplicate key '' (first at t.yaml:1:1)"),
        ("a: 1\n? \n: 2\n? \n: 3\na: 4\n", "2:2: error: expected a string key, found an empty key"),
        ("a: 1\na: 2\n? \n: 3\n", "2:1: error: duplicate key 'a' (first at t.yaml:1:1)"),
        ("{a: 1, ? : 2, ? : 3}", "1:10: error: expected a string key, found an empty key"),
        // Aliases are never keys, even to a string; refused before a later repeat.
        (
            "s: &s k\n*s : 1\n",
            "2:1: error: expected a string key, found an alias (aliases cannot be used in mapping keys)"
        ),
        (
            "s: &s k\nm: {*s : 1, k: 2, k: 3}\n",
            "2:5: error: expected a string key, found an alias (aliases cannot be used in mapping keys)"
        ),
        ("s: &s k\nm: {k: 2, k: 3, *s : 1}\n", "2:11: error: duplicate key 'k' (first at t.yaml:2:5)"),
        // Keys with tags: checked as values of that tag, then compared by their text.
        ("!!str 8: a\n'8': b\n", "2:1: error: duplicate key '8' (first at t.yaml:1:1)"),
        ("a: 1\n!!int b: 2\na: 3\n", "2:1: error: 'b' is not a valid !!int"),
    ]

    @Test(arguments: firstProblems)
    func namesTheFirstProblemInDocumentOrder(input: String, expected: String) {
        let errors = Set((0..<20).map { _ in readerError(input, .yaml) })
        #expect(errors == ["t.yaml:" + expected])
    }

    @Test func anAnchoredKeyCanBeUsedAsAValue() throws {
        let node = try SpecReader.read(Data("&k 8: a\nb: *k\n".utf8), format: .yaml, source: "t.yaml")
        // The key is the name "8"; as a value the same scalar is the number 8, at the key's place (its anchor included).
        #expect(node.canonicalJSON == #"{"8":"a","b":8}"#)
        #expect(node["b"]?.location.description == "t.yaml:1:1")
    }

    @Test func explicitKeysAndAliasesGoTogether() throws {
        // An explicit key beside an alias used as a value is an ordinary key.
        let node = try SpecReader.read(Data("a: &x 1\nb: *x\n? k\n: v\n".utf8), format: .yaml, source: "t.yaml")
        #expect(node.canonicalJSON == #"{"a":1,"b":1,"k":"v"}"#)
    }

    @Test func duplicatesInsideAnAliasedMappingAreFoundAtTheAnchor() {
        #expect(
            readerError("a: &a {x: 1, x: 2}\nb: *a\n", .yaml)
                == "t.yaml:1:14: error: duplicate key 'x' (first at t.yaml:1:8)")
    }

    @Test func manyKeysUseTheIndexAndStillFindTheFirstRepeat() {
        // Past 16 members the mapping looks keys up in a hash table; the order stays the text's.
        let keys = (0..<40).map { "k\($0): \($0)\n" }.joined()
        #expect(
            readerError(keys + "k30: x\nk5: y\n", .yaml)
                == "t.yaml:41:1: error: duplicate key 'k30' (first at t.yaml:31:1)")
        #expect(readerError(keys + "k40: x\nk41: y\n", .yaml) == nil)
    }
}
