import Foundation
import Testing

@testable import Livery

/// Locations hold their file's name shared (``SourceName``); what a location says and how it
/// compares is what it was with the name as a string.
@Suite struct SourceNameTests {
    @Test func aNameReadsBackAndComparesByItsText() {
        let long = "themes/a-name-longer-than-fifteen-bytes.tokens.json"
        let first = SourceLocation(file: long, line: 2, column: 3)
        let second = SourceLocation(file: String(long.utf8.map { Character(Unicode.Scalar($0)) }), line: 2, column: 3)
        #expect(first.file == long)
        #expect(first.description == "\(long):2:3")
        #expect(first == second && first.hashValue == second.hashValue)
        #expect(first != SourceLocation(file: long + "x", line: 2, column: 3))
        #expect(first != SourceLocation(file: long, line: 2, column: 4))
        var renamed = first
        renamed.file = "other.yaml"
        #expect(renamed.file == "other.yaml" && renamed.line == 2 && first.file == long)
    }

    /// A name the table does not keep (here, one too long for it) is held as its own reference,
    /// and still equals every other location in a file of that name.
    @Test func aNameTheTableDoesNotKeep() {
        let long = String(repeating: "folder/", count: SourceName.maxSharedLength / 7 + 1) + "a.yaml"
        #expect(long.utf8.count > SourceName.maxSharedLength)
        let first = SourceLocation(file: long, line: 1, column: 1)
        let second = SourceLocation.start(of: String(long))
        #expect(first.file == long)
        #expect(first == second && first.hashValue == second.hashValue)
        #expect(Set([first, second]).count == 1)
        #expect(first != SourceLocation(file: "a.yaml", line: 1, column: 1))
    }

    /// Nodes read from a file share its name, whichever reader made them.
    @Test(arguments: [SpecFormat.json, .yaml])
    func readersNameEveryNodeWithTheirSource(_ format: SpecFormat) throws {
        let text = format == .json ? #"{"a": [1, {"b": "c"}]}"# : "a:\n  - 1\n  - b: c\n"
        let source = "a/specs/folder/named/at/length.\(format.rawValue)"
        let root = try SpecReader.read(Data(text.utf8), format: format, source: source)
        var files: Set<String> = []
        func collect(_ node: SpecNode) {
            files.insert(node.location.file)
            switch node.value {
            case .sequence(let items): items.forEach(collect)
            case .mapping(let members):
                for member in members {
                    files.insert(member.keyLocation.file)
                    collect(member.value)
                }
            default: break
            }
        }
        collect(root)
        #expect(files == [source])
    }
}
