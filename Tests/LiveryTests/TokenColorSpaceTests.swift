import Foundation
import Livery
import Testing

/// Colours of the Color Module's spaces outside the sRGB family, converted by CSS Color 4's
/// conversions. The expected values are CSS Color 4's own examples (the same dark red written
/// in lab, lch, oklab and oklch) and what Chromium draws for each colour on an sRGB canvas.
@Suite struct TokenColorSpaceTests {
    struct Known: CustomTestStringConvertible, Sendable {
        var space: String
        var components: [Double]
        var hex: String
        var testDescription: String { "\(space) \(components) is \(hex)" }
    }

    static let known: [Known] = [
        Known(space: "lab", components: [29.2345, 39.3825, 20.0664], hex: "#7D2329"),
        Known(space: "lch", components: [29.2345, 44.2, 27], hex: "#7D2329"),
        Known(space: "oklab", components: [0.40101, 0.1147, 0.0453], hex: "#7D2329"),
        Known(space: "oklch", components: [0.40101, 0.12332, 21.555], hex: "#7D2329"),
        Known(space: "lab", components: [54.29, 80.8, 69.89], hex: "#FF0000"),
        Known(space: "oklch", components: [0.627955, 0.257683, 29.2339], hex: "#FF0000"),
        Known(space: "lab", components: [100, 0, 0], hex: "#FFFFFF"),
        Known(space: "oklab", components: [0, 0, 0], hex: "#000000"),
        Known(space: "lch", components: [60, 40, 250], hex: "#3F9AD2"),
        Known(space: "oklch", components: [0.7, 0.1, 200], hex: "#40B1B7"),
        Known(space: "oklab", components: [0.5, -0.1, 0.05], hex: "#207544"),
        Known(space: "lab", components: [75, -30, 40], hex: "#92C76B"),
        Known(space: "display-p3", components: [0.3, 0.6, 0.4], hex: "#249B61"),
        Known(space: "display-p3", components: [1, 1, 1], hex: "#FFFFFF"),
    ]

    static func document(space: String, components: [Double], alpha: Double = 1) -> String {
        let list = components.map { "\($0)" }.joined(separator: ", ")
        return
            #"{ "c": { "$type": "color", "$value": { "colorSpace": "\#(space)", "components": [\#(list)], "alpha": \#(alpha) } } }"#
    }

    static func colour(_ document: String) throws -> String? {
        var set = SpecSourceSet()
        try set.set("t.tokens.json", to: Data(document.utf8))
        return try Spec(sources: set).resolvedVariables()["c"]?.string
    }

    @Test(arguments: known) func convertsToTheKnownSRGBColour(_ test: Known) throws {
        #expect(try Self.colour(Self.document(space: test.space, components: test.components)) == test.hex)
    }

    @Test func alphaIsKept() throws {
        #expect(try Self.colour(Self.document(space: "oklch", components: [0.7, 0.1, 200], alpha: 0.5)) == "#40B1B780")
    }

    /// Outside sRGB's gamut: Chromium clips these (to #FA0500, #FF0000, #00C500); Livery refuses
    /// them where the colour space is named, rather than approximate.
    @Test(arguments: [
        ("display-p3", [0.9, 0.2, 0.1]), ("display-p3", [1, 0, 0]), ("oklch", [0.7, 0.3, 140]), ("lab", [50, 120, 0]),
    ])
    func aColourOutsideSRGBIsRefusedWhereItsSpaceIsNamed(space: String, components: [Double]) throws {
        let document = Self.document(space: space, components: components)
        let errors = DesignTokenErrorTests.errors(document)
        let error = try #require(errors.first)
        #expect(error.code == .invalidValue)
        #expect(error.message.contains("lies outside sRGB's gamut"), "\(error)")
        #expect(
            error.location == DesignTokensTests.place(of: "\"\(space)\"", in: document, file: "t.tokens.json"))
    }

    @Test(arguments: [
        ("lab", [101.0, 0, 0], "lightness component 101 is out of range for 'lab': expected 0…100"),
        ("lch", [50.0, -1, 0], "chroma component -1 is out of range for 'lch': expected at least 0"),
        ("oklch", [0.5, 0.1, 360], "hue component 360 is out of range for 'oklch': expected 0…360 (excluded)"),
        ("oklab", [1.5, 0, 0], "lightness component 1.5 is out of range for 'oklab': expected 0…1"),
        ("display-p3", [0, 2, 0], "green component 2 is out of range for 'display-p3': expected 0…1"),
    ])
    func aComponentOutOfItsRangeIsRefused(space: String, components: [Double], message: String) throws {
        let error = try #require(
            DesignTokenErrorTests.errors(Self.document(space: space, components: components)).first)
        #expect(error.code == .invalidValue)
        #expect(error.message == message)
    }
}
