import Foundation
import Testing

@testable import Livery

/// A design token is a value: changing a copy leaves the token it was copied from alone, and
/// a new path renames it.
@Suite struct DesignTokenCopyTests {
    static let document = #"""
        { "color": { "$type": "color", "brand": { "$value": { "colorSpace": "srgb", "components": [1, 0, 0] },
          "$description": "Brand red" } } }
        """#

    @Test func aChangedCopyLeavesTheOriginal() throws {
        let spec = try Spec(data: Data(Self.document.utf8), format: .json, source: "t.tokens.json")
        let original = try #require(spec.token(named: "color.brand"))
        var copy = original
        copy.description = "Another red"
        copy.path = ["palette", "red"]
        copy.type = .number
        #expect(original.description == "Brand red")
        #expect(original.path == ["color", "brand"] && original.name == "color.brand")
        #expect(original.type == .color)
        #expect(copy.description == "Another red")
        #expect(copy.path == ["palette", "red"] && copy.name == "palette.red")
        #expect(copy.type == .number)
        #expect(spec.token(named: "color.brand")?.description == "Brand red")
    }

    /// Which references a token's value holds is kept with the token (the alias checks read it
    /// instead of walking every value), so a changed value says so anew.
    @Test func aChangedValueSaysWhetherItRefers() throws {
        let spec = try Spec(data: Data(Self.document.utf8), format: .json, source: "t.tokens.json")
        var token = try #require(spec.token(named: "color.brand"))
        #expect(!token.holdsReference)
        token.value = SpecNode(.sequence([SpecNode(.string("{color.base}"), at: token.location)]), at: token.location)
        #expect(token.holdsReference)
        #expect(!token.isLiteral, "a chain of aliases does not end at a value that holds one")
        token.value = SpecNode(.string("{color}x"), at: token.location)
        #expect(!token.holdsReference && token.isLiteral)
        token.value = SpecNode(.string("@color.base"), at: token.location)
        #expect(!token.holdsReference && !token.isLiteral, "a variable's reference is not a literal either")
        #expect(token.path == ["color", "brand"])
        token.path = ["a", "b", "c"]
        #expect(token.name == "a.b.c" && token.path == ["a", "b", "c"])
    }
}
