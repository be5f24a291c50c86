import Foundation
import LiveryTesting
import Testing

/// Bad specs, each with the exact diagnostic it must produce. A bad spec is rejected before any
/// target is touched, and the previous spec stays current.
@Suite struct BadSpecTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var files: [String: String]
        var expected: String
        var testDescription: String { name }

        init(_ name: String, _ files: [String: String], _ expected: String) {
            self.name = name
            self.files = files
            self.expected = expected
        }

        init(_ name: String, yaml: String, _ expected: String) {
            self.init(name, ["card.yaml": yaml], expected)
        }
    }

    static let cases: [Case] = [
        Case(
            "bad colour",
            yaml: """
                specs:
                  card:
                    - { type: BackgroundColor, color: "#12345" }
                """,
            "card.yaml:3:39: error: 'color' of trait BackgroundColor: invalid colour '#12345': expected #RGB, #RGBA, #RRGGBB, #RRGGBBAA, rgb(r, g, b) or rgba(r, g, b, a)"
        ),
        Case(
            "unknown trait type", yaml: "specs:\n  card:\n    - { type: CornerRadios, radius: 4 }",
            "card.yaml:3:15: error: unknown trait type 'CornerRadios'; did you mean 'CornerRadius'?"),
        Case(
            "unknown trait type, nothing close", yaml: "specs:\n  card:\n    - { type: Sparkle }",
            "card.yaml:3:15: error: unknown trait type 'Sparkle'"),
        Case(
            "unknown key", yaml: "specs:\n  card:\n    - { type: CornerRadius, radiuss: 4, radius: 2 }",
            "card.yaml:3:29: error: unknown key 'radiuss' in trait CornerRadius; did you mean 'radius'?"),
        Case(
            "unknown nested key", yaml: "specs:\n  card:\n    - { type: DropShadow, offset: { width: 1, heigth: 2 } }",
            "card.yaml:3:47: error: unknown key 'heigth' in 'offset' of trait DropShadow; did you mean 'height'?"),
        Case(
            "wrong value type", yaml: "specs:\n  card:\n    - { type: CornerRadius, radius: eight }",
            "card.yaml:3:37: error: 'radius' of trait CornerRadius: expected a number, found the string 'eight'"),
        Case(
            "quoted number is a string", yaml: "specs:\n  card:\n    - { type: CornerRadius, radius: \"8\" }",
            "card.yaml:3:37: error: 'radius' of trait CornerRadius: expected a number, found the string '8'"),
        Case(
            "missing key", yaml: "specs:\n  card:\n    - { type: CornerRadius }",
            "card.yaml:3:7: error: missing key 'radius' in trait CornerRadius"),
        Case(
            "missing variable",
            yaml:
                "variables: { colors: { accent: '#FFFFFF' } }\nspecs:\n  card:\n    - { type: BackgroundColor, color: '@colors.accnt' }",
            "card.yaml:4:39: error: unknown variable '@colors.accnt'; did you mean '@colors.accent'?"),
        Case(
            "reference cycle",
            yaml:
                "variables: { a: '@b', b: '@c', c: '@a' }\nspecs:\n  card:\n    - { type: BackgroundColor, color: '@a' }",
            "card.yaml:1:35: error: reference cycle: @a (card.yaml:1:17) → @b (card.yaml:1:26) → @c (card.yaml:1:35) → @a"
        ),
        Case(
            "include cycle",
            [
                "a.yaml": "include: [b.yaml]\nspecs: {}",
                "b.yaml": "include: [a.yaml]\nspecs: {}",
            ], "b.yaml:1:11: error: include cycle: a.yaml → b.yaml → a.yaml"),
        Case(
            "include outside the folder", ["card.yaml": "include: [../outside.yaml]\nspecs: {}"],
            "card.yaml:1:11: error: include '../outside.yaml' leaves the specs folder"),
        Case(
            "include with an absolute path", ["card.yaml": "include: [/etc/passwd.yaml]\nspecs: {}"],
            "card.yaml:1:11: error: include '/etc/passwd.yaml' is an absolute path; spec paths are relative to the specs folder"
        ),
        Case(
            "include of a hidden file", ["card.yaml": "include: [.secret.yaml]\nspecs: {}"],
            "card.yaml:1:11: error: include '.secret.yaml' names a hidden file or folder"),
        Case(
            "include of another extension", ["card.yaml": "include: [notes.txt]\nspecs: {}"],
            "card.yaml:1:11: error: include 'notes.txt' is not a .json, .yaml, .yml or .tokens file"),
        Case(
            "include of a missing file", ["card.yaml": "include: [palette.yaml]\nspecs: {}"],
            "card.yaml:1:11: error: include 'palette.yaml' names no spec file in the folder"),
        Case(
            "remote include", ["card.yaml": "include: ['https://example.com/p.yaml']\nspecs: {}"],
            "card.yaml:1:11: error: remote includes are off: 'https://example.com/p.yaml' is not fetched; enable it with --allow-include https://example.com/"
        ),
        Case(
            "duplicate identifier across files",
            [
                "a.yaml": "specs:\n  card: []",
                "b.yaml": "specs:\n  other: []\n  card: []",
            ], "b.yaml:3:3: error: duplicate identifier 'card' (first defined at a.yaml:2:3)"),
        Case(
            "duplicate variable across files",
            [
                "a.yaml": "variables: { colors: { accent: '#000000' } }\nspecs: {}",
                "b.yaml": "variables:\n  colors:\n    accent: '#FFFFFF'\nspecs: {}",
            ], "b.yaml:3:5: error: duplicate variable 'colors.accent' (first defined at a.yaml:1:24)"),
        Case(
            "Inherit cycle",
            yaml: "specs:\n  a: [{ type: Inherit, traits: [b] }]\n  b: [{ type: Inherit, traits: [a] }]",
            "card.yaml:3:7: error: Inherit cycle: a → b → a"),
        Case(
            "Inherit of an unknown identifier",
            yaml: "specs:\n  text.base: []\n  a: [{ type: Inherit, traits: [text.bse] }]",
            "card.yaml:3:7: error: Inherit names unknown identifier 'text.bse'; did you mean 'text.base'?"),
        Case(
            "unknown top-level key", yaml: "spec:\n  card: []",
            "card.yaml:1:1: error: unknown top-level key 'spec'; did you mean 'specs'?"),
        Case(
            "document is not a mapping", yaml: "- card",
            "card.yaml:1:1: error: expected a mapping with 'specs' (and optionally 'variables', 'themes', 'include'), found a list"
        ),
        Case(
            "trait list is not a list", yaml: "specs:\n  card: { type: CornerRadius, radius: 1 }",
            "card.yaml:2:9: error: expected a list of traits, found a mapping"),
        Case(
            "entry is not a mapping", yaml: "specs:\n  card: [CornerRadius]",
            "card.yaml:2:10: error: expected a trait (a mapping with a 'type'), found the string 'CornerRadius'"),
        Case(
            "entry without a type", yaml: "specs:\n  card: [{ radius: 1 }]",
            "card.yaml:2:10: error: trait has no 'type'"),
        Case(
            "type is not a string", yaml: "specs:\n  card: [{ type: 12 }]",
            "card.yaml:2:18: error: expected a trait type name, found the number 12"),
        Case(
            "theme overrides an unknown variable",
            yaml: "variables: { accent: '#000000' }\nthemes:\n  dark: { accnt: '#FFFFFF' }\nspecs: {}",
            "card.yaml:3:11: error: theme 'dark' overrides 'accnt', which is not a variable; did you mean 'accent'?"),
        Case(
            "bad colour only in a theme",
            yaml:
                "variables: { bg: '#000000' }\nthemes:\n  dark: { bg: '#GGGGGG' }\nspecs:\n  card: [{ type: BackgroundColor, color: '@bg' }]",
            "card.yaml:3:15: error: 'color' of trait BackgroundColor: invalid colour '#GGGGGG': expected hexadecimal digits 0-9 and A-F after '#', found 'G'"
        ),
        Case(
            "opacity out of range", yaml: "specs:\n  card: [{ type: Opacity, opacity: 1.5 }]",
            "card.yaml:2:36: error: 'opacity' of trait Opacity: 1.5 is out of range 0...1"),
        Case(
            "negative radius", yaml: "specs:\n  card: [{ type: CornerRadius, radius: -2 }]",
            "card.yaml:2:40: error: 'radius' of trait CornerRadius: -2.0 must be at least 0"),
        Case(
            "unknown font weight", yaml: "specs:\n  card: [{ type: Font, weight: bolder }]",
            "card.yaml:2:32: error: 'weight' of trait Font: unknown font weight 'bolder': expected one of ultraLight, thin, light, regular, medium, semibold, bold, heavy, black or a number 100...900 in steps of 100"
        ),
        Case(
            "unknown colour function", yaml: "specs:\n  card: [{ type: BackgroundColor, color: '~blend(#000, #FFF)' }]",
            "card.yaml:2:42: error: unknown function '~blend': expected ~alpha(colour, alpha) or ~mix(colour, colour, part)"
        ),
        Case(
            "colour function on a non-colour variable",
            yaml:
                "variables: { size: { w: 1 } }\nspecs:\n  card: [{ type: BackgroundColor, color: '~alpha(@size, 0.5)' }]",
            "card.yaml:3:42: error: '@size' in '~alpha(@size, 0.5)' must be a colour, found a mapping"),
        Case(
            "Set values are not a mapping", yaml: "specs:\n  card: [{ type: Set, values: [1, 2] }]",
            "card.yaml:2:31: error: 'values' of trait Set: expected a mapping of property names to values, found a list"
        ),
        Case(
            "duplicate key in one mapping", yaml: "specs:\n  card:\n    - { type: CornerRadius, radius: 1, radius: 2 }",
            "card.yaml:3:40: error: duplicate key 'radius' (first at card.yaml:3:29)"),
        Case(
            "JSON trailing comma", ["card.json": #"{"specs": {"card": [],}}"#],
            "card.json:1:22: error: trailing comma before '}'"),
        Case(
            "include needs a folder when read from a string", ["card.yaml": "include: palette.yaml\nspecs: {}"],
            "card.yaml:1:10: error: include 'palette.yaml' names no spec file in the folder"),
    ]

    @Test(arguments: cases)
    func rejectsWithExactDiagnostic(_ bad: Case) throws {
        var sources = SpecSourceSet()
        for (path, text) in bad.files { try sources.set(path, to: Data(text.utf8)) }
        let errors = Spec.validate(sources)
        #expect(errors.first?.description == bad.expected)
        #expect(throws: SpecError.self) { try Spec(sources: sources) }
    }

    @Test(arguments: cases)
    func aRejectedSpecLeavesTheProviderAsItWas(_ bad: Case) throws {
        let provider = TraitsProvider()
        let box = StyledBox()
        provider.register(box, as: "card")
        try provider.load(Spec(yaml: "specs: { card: [{ type: CornerRadius, radius: 5 }] }"))
        let before = box.snapshot
        var sources = SpecSourceSet()
        for (path, text) in bad.files { try sources.set(path, to: Data(text.utf8)) }
        #expect(throws: SpecError.self) { try provider.load(Spec(sources: sources)) }
        #expect(box.snapshot == before)
        #expect(provider.spec?.identifiers == ["card"])
    }

    /// Specs that parse but cannot apply to the registered target: the load is refused and
    /// nothing changes.
    static let applyCases: [(yaml: String, target: String, expected: String)] = [
        (
            "specs:\n  card: [{ type: CornerRadius, radius: 4 }]", "plain",
            "card.yaml:2:10: error: trait CornerRadius cannot apply to 'card': PlainObject is not HasCornerRadius"
        ),
        (
            "specs:\n  card: [{ type: Set, values: { retries: 4 } }]", "plain",
            "card.yaml:2:10: error: trait Set cannot apply to 'card': PlainObject is not Tweakable"
        ),
        (
            "specs:\n  card: [{ type: Set, values: { retrys: 4 } }]", "box",
            "card.yaml:2:33: error: StyledBox has no tweakable property 'retrys'; did you mean 'retries'?"
        ),
        (
            "specs:\n  card: [{ type: Set, values: { colour: 4 } }]", "box",
            "card.yaml:2:33: error: StyledBox has no tweakable property 'colour'; it has 'label', 'retries', 'timeout'"
        ),
        (
            "specs:\n  card: [{ type: Set, values: { retries: 2.5 } }]", "box",
            "card.yaml:2:42: error: 'retries' of StyledBox: expected a whole number, found 2.5"
        ),
        (
            "specs:\n  card: [{ type: Set, values: { timeout: fast } }]", "box",
            "card.yaml:2:42: error: 'timeout' of StyledBox: expected a number, found the string 'fast'"
        ),
    ]

    @Test(arguments: applyCases.indices)
    func applyTimeErrorsAreExactAndChangeNothing(_ index: Int) throws {
        let bad = Self.applyCases[index]
        let provider = TraitsProvider()
        let box = StyledBox()
        let plain = PlainObject()
        let target: AnyObject = bad.target == "box" ? box : plain
        provider.register(target, as: "card")
        try provider.load(Spec(yaml: "specs: { card: [] }"))
        let before = box.snapshot
        let error = try #require(throws: SpecError.self) {
            try provider.load(Spec(yaml: bad.yaml, source: "card.yaml"))
        }
        #expect(error.description == bad.expected)
        #expect(box.snapshot == before)
        #expect(provider.spec?.traits(for: "card").isEmpty == true)
    }

    @Test func includeFromAStringSpecNeedsAFolder() throws {
        let error = try #require(throws: SpecError.self) {
            try Spec(yaml: "include: [palette.yaml]\nspecs: {}", source: "s.yaml")
        }
        #expect(
            error.description
                == "s.yaml:1:11: error: include 'palette.yaml' needs a specs folder; load this spec with Spec(directory:) or Spec(file:)"
        )
    }

    @Test func validateReportsEveryError() throws {
        var sources = SpecSourceSet()
        try sources.set(
            "card.yaml", to: Data("specs:\n  a: [{ type: Nope }]\n  b: [{ type: CornerRadius, radius: x }]".utf8))
        let errors = Spec.validate(sources)
        #expect(
            errors.map(\.description) == [
                "card.yaml:2:15: error: unknown trait type 'Nope'",
                "card.yaml:3:37: error: 'radius' of trait CornerRadius: expected a number, found the string 'x'",
            ])
    }

    @Test func includeThroughASymlinkedFolderIsRefused() throws {
        let outside = try TemporarySpecFolder()
        try outside.write("palette.yaml", "variables: { a: 1 }")
        let folder = try TemporarySpecFolder()
        try folder.write("card.yaml", "include: [shared/palette.yaml]\nspecs: {}")
        try FileManager.default.createSymbolicLink(at: folder.url("shared"), withDestinationURL: outside.url)
        let error = try #require(throws: SpecError.self) { try Spec(directory: folder.url) }
        #expect(
            error.description
                == "card.yaml:1:11: error: include 'shared/palette.yaml' goes through 'shared', a symbolic link to a folder"
        )
    }
}
