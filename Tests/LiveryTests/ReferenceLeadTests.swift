import PropertyBased
import Testing

@testable import Livery

/// `VariableScope.lead(of:)` reads a text's first bytes where they settle what it is, and must
/// say what the text's characters say: `@` followed by a combining mark is one character, not
/// `@`, so such a text is plain (or a reference, where `@@` is followed by one).
@Suite struct ReferenceLeadTests {
    /// The classification by characters, as the rule is written in the documentation.
    static func byCharacters(_ text: String) -> VariableScope.Lead {
        if text.hasPrefix("@@") || text.hasPrefix("~~") { return .escaped }
        if text.hasPrefix("@") { return .reference }
        if text.hasPrefix("~") { return .function }
        return .plain
    }

    @Test(
        arguments: [
            ("", .plain), ("@", .reference), ("~", .function), ("@@", .escaped), ("~~", .escaped),
            ("@a.b", .reference), ("~alpha(@a, 0.5)", .function), ("@@home", .escaped), ("@~", .reference),
            ("~@", .function), ("#FFF", .plain), ("a@b", .plain), ("@\u{301}a", .plain), ("~\u{301}", .plain),
            ("@@\u{301}", .reference), ("~~\u{301}x", .function), ("@\r\n", .reference), ("@é", .reference),
            ("é@", .plain), ("\u{301}@", .plain),
        ] as [(String, VariableScope.Lead)])
    func textsLeadAsTheirCharactersSay(_ text: String, _ lead: VariableScope.Lead) {
        #expect(VariableScope.lead(of: text) == lead, "\(text.unicodeScalars.map { $0.escaped(asASCII: true) })")
        #expect(Self.byCharacters(text) == lead)
    }

    /// Pieces whose joins make the cases that matter: sigils, their doubles, combining marks
    /// (which join the character before them), CR LF, and multi-byte characters.
    static let pieces = ["@", "~", "a", ".", " ", "\u{301}", "\u{20DD}", "\r", "\n", "é", "😀", "\u{200D}", "#"]

    @Test func generatedTextsLeadAsTheirCharactersSay() async {
        await propertyCheck(count: 3_000, input: Gen.int(in: 0..<Self.pieces.count).array(of: 0...5)) { picks in
            let text = picks.map { Self.pieces[$0] }.joined()
            #expect(VariableScope.lead(of: text) == Self.byCharacters(text), "\(Array(text.unicodeScalars))")
        }
    }
}
