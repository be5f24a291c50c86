import Foundation
import Livery
import Testing

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
}
