import Foundation
import PropertyBased
import Testing

@testable import Livery

/// A built-in property trait is read by its declaration, and anything that read does not take
/// goes through `Decodable`: these tests hold the two paths equal, value for value and error for
/// error (with its place), and check that the declared read really takes the plain valid entries.
@Suite struct DeclaredDecodingTests {
    /// What a decode gives, comparable: the trait as sorted JSON with what it sets (which the
    /// declared read gives as it reads, and the general path reads back through key paths), or
    /// the error as printed.
    enum Outcome: Equatable, CustomStringConvertible {
        case trait(String)
        case error(String)

        var description: String {
            switch self {
            case .trait(let json): json
            case .error(let message): "error: " + message
            }
        }
    }

    static func outcome(_ entry: SpecNode, _ type: TraitType, byDeclaration: Bool) throws -> Outcome {
        do {
            let decoded = try type.decodeWithSettings(entry, byDeclaration: byDeclaration)
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            let json = String(decoding: try encoder.encode(decoded.trait), as: UTF8.self)
            return .trait(json + " setting \(decoded.settings) of \(decoded.names ?? [])")
        } catch let error as SpecError {
            return .error(error.description)
        }
    }

    static func entry(_ yaml: String) throws -> SpecNode {
        try SpecNode.parse(Data(yaml.utf8), format: .yaml, source: "card.yaml")
    }

    static func type(_ name: String) throws -> TraitType {
        try #require(TraitRegistry.standard.type(named: name))
    }

    /// Plain valid entries of every built-in property trait, each in the forms its fields take.
    static let valid = [
        "{ type: BackgroundColor, color: '#FF8000' }",
        "{ type: BackgroundColor, color: 'rgba(10, 20, 30, 0.5)' }",
        "{ type: Border, color: '#D1D1D6', width: 1 }",
        "{ type: Border, width: 2.5 }",
        "{ type: Border }",
        "{ type: Constraint, constant: -12 }",
        "{ type: CornerRadius, radius: 8 }",
        "{ type: DropShadow, color: '#000000', offset: { width: 0, height: 2 }, opacity: 0.3, radius: 4 }",
        "{ type: DropShadow, offset: [1, -2.5] }",
        "{ type: DropShadow, offset: { height: 3, width: 1 }, color: null }",
        "{ type: Font, name: Inter, size: 18, weight: semibold, color: '#1C1C1E' }",
        "{ type: Font, weight: 700 }",
        "{ type: Font, weight: 700.0 }",
        "{ type: Font, weight: '300' }",
        "{ type: Font, weight: Bold }",
        "{ type: Hidden, hidden: true }",
        "{ type: Opacity, opacity: 0.5 }",
        "{ type: Padding, insets: 8 }",
        "{ type: Padding, insets: [8, 12, 8, 12] }",
        "{ type: Padding, insets: { right: 4, top: 1, left: 2, bottom: 3 } }",
        "{ type: TextColor, color: '#333' }",
    ]

    /// Entries the declared read leaves to `Decodable`: every kind of error it reports.
    static let invalid = [
        "{ type: BackgroundColor }",
        "{ type: BackgroundColor, color: null }",
        "{ type: BackgroundColor, color: '#12345' }",
        "{ type: BackgroundColor, color: 12 }",
        "{ type: BackgroundColor, color: '#FFFFFF', colour: '#000000' }",
        "{ type: Border, width: '1' }",
        "{ type: Border, widht: 1 }",
        "{ type: CornerRadius, radius: eight }",
        "{ type: CornerRadius, radiuss: 4, radius: 2 }",
        "{ type: CornerRadius, radiuss: 4 }",
        "{ type: DropShadow, offset: { width: 1, heigth: 2 } }",
        "{ type: DropShadow, offset: { width: 1 } }",
        "{ type: DropShadow, offset: { width: 1, height: 2, depth: 3 } }",
        "{ type: DropShadow, offset: [1, 2, 3] }",
        "{ type: DropShadow, offset: [1, '2'] }",
        "{ type: DropShadow, offset: 4 }",
        "{ type: Font, weight: heavyish }",
        "{ type: Font, weight: 450 }",
        "{ type: Font, weight: true }",
        "{ type: Font, size: [1] }",
        "{ type: Hidden, hidden: 'yes' }",
        "{ type: Padding, insets: { top: 1, left: 2, bottom: 3 } }",
        "{ type: Padding, insets: [1, 2] }",
        "{ type: Padding, insets: '8' }",
        "{ type: Padding, insets: null }",
    ]

    @Test(arguments: valid) func plainValidEntriesAreReadByTheirDeclaration(_ yaml: String) throws {
        let entry = try Self.entry(yaml)
        let type = try Self.type(try #require(entry["type"]?.string))
        #expect(type.declaredRead(entry) != nil, "\(yaml) was left to Decodable")
        #expect(
            try Self.outcome(entry, type, byDeclaration: true) == Self.outcome(entry, type, byDeclaration: false))
    }

    @Test(arguments: invalid) func invalidEntriesAreLeftToDecodableAndFailAsThere(_ yaml: String) throws {
        let entry = try Self.entry(yaml)
        let type = try Self.type(try #require(entry["type"]?.string))
        #expect(type.declaredRead(entry) == nil, "\(yaml) was read by its declaration")
        let outcome = try Self.outcome(entry, type, byDeclaration: true)
        guard case .error = outcome else {
            Issue.record("\(yaml) decoded as \(outcome)")
            return
        }
        #expect(try outcome == Self.outcome(entry, type, byDeclaration: false))
    }

    /// Keys the generated entries draw on: every built-in field, and near misses.
    static let keys = [
        "color", "width", "constant", "radius", "offset", "opacity", "name", "size", "weight", "hidden", "insets",
        "colour", "radiuss", "x",
    ]

    /// Values the generated entries draw on: each form a field takes, and each one it does not.
    static let values = [
        "0", "2", "-1", "2.5", "1e3", "400", "0.3", "'#FF0000'", "'#12345'", "'rgb(1, 2, 3)'", "bold", "Inter",
        "'8'", "heavyish", "true", "null", "{ width: 1, height: 2 }", "{ width: 1 }", "{ width: 1, heigth: 2 }",
        "{ top: 1, left: 2, bottom: 3, right: 4 }", "{ top: 1, left: 2, bottom: 3 }", "{}", "[1, 2]",
        "[1, 2, 3, 4]", "[1, '2']", "[]",
    ]

    static let types = [
        "BackgroundColor", "Border", "Constraint", "CornerRadius", "DropShadow", "Font", "Hidden", "Opacity",
        "Padding", "TextColor",
    ]

    @Test func generatedEntriesDecodeAlikeByEitherPath() async throws {
        await propertyCheck(
            count: 2_000, input: Gen.int(in: 0...1_000_000), Gen.int(in: 0...1_000_000).array(of: 0...4)
        ) { typeSeed, fieldSeeds in
            var fields: [String: String] = [:]
            for seed in fieldSeeds {
                fields[Self.keys[seed % Self.keys.count]] = Self.values[(seed / Self.keys.count) % Self.values.count]
            }
            let members = fields.sorted { $0.key < $1.key }.map { ", \($0.key): \($0.value)" }.joined()
            let yaml = "{ type: \(Self.types[typeSeed % Self.types.count])\(members) }"
            do {
                let entry = try Self.entry(yaml)
                let type = try Self.type(try #require(entry["type"]?.string))
                let declared = try Self.outcome(entry, type, byDeclaration: true)
                let general = try Self.outcome(entry, type, byDeclaration: false)
                #expect(declared == general, "\(yaml)")
            } catch {
                Issue.record("\(yaml): \(error)")
            }
        }
    }
}

/// `Inherit` is read as it is when plain, and through `Decodable` otherwise: the same either way.
@Suite struct PlainInheritTests {
    @Test(
        arguments: [
            "{ type: Inherit, traits: [base, text.base] }", "{ type: Inherit, traits: [] }",
            "{ type: Inherit }", "{ type: Inherit, traits: base }", "{ type: Inherit, traits: [base, 2] }",
            "{ type: Inherit, traits: [base], trait: [other] }", "{ type: Inherit, trait: [base] }",
        ])
    func plainAndDecodableReadsAgree(_ yaml: String) throws {
        let entry = try DeclaredDecodingTests.entry(yaml)
        let outcome = { (plainly: Bool) -> String in
            do {
                return try InheritDirective.decode(entry, plainly: plainly).traits.joined(separator: ",")
            } catch {
                return "error: \(error)"
            }
        }
        #expect(outcome(true) == outcome(false))
        #expect((InheritDirective(plain: entry) != nil) == !outcome(true).hasPrefix("error"))
    }
}
