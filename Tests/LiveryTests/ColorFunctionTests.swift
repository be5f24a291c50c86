import Livery
import Testing

@Suite struct ColorFunctionTests {
    /// What the resolver was asked for that is not in its table.
    struct Unresolved: Error, Equatable {
        var path: String
    }

    /// Variables as a spec would hold them, by path.
    static let variables: [String: String] = [
        "colors.text": "#1C1C1E",
        "colors.accent": "rgba(10, 132, 255, 1)",
        "colors.muted": "~alpha(@colors.text, 0.5)",
        "colors.alias": "@colors.muted",
        "colors.bad": "#12",
        "colors.badCall": "~alpha(#FFF, 2)",
        "colors.missing": "~alpha(@colors.nope, 0.5)",
        "opacity.half": "0.5",
        "opacity.alias": "@opacity.half",
        "cycle.a": "@cycle.b",
        "cycle.b": "~alpha(@cycle.a, 0.5)",
        "cycle.self": "@cycle.self",
    ]

    static func resolve(_ path: String) throws -> String {
        guard let value = variables[path] else { throw Unresolved(path: path) }
        return value
    }

    static func evaluate(_ text: String) throws -> Color {
        try ColorFunction.evaluate(text, resolve: resolve)
    }

    @Test(arguments: [
        ("~alpha(#FFF, 0.5)", true), ("  ~mix(#000, #FFF, 0.5)", true), ("~", true), ("~anything", true),
        ("#FFF", false), ("@colors.text", false), ("rgb(1, 2, 3)", false), ("", false), ("a~alpha", false),
    ])
    func recognisesCallsByTheirTilde(text: String, isCall: Bool) {
        #expect(ColorFunction.isCall(text) == isCall)
    }

    @Test(arguments: [
        ("~alpha(#FF0000, 0.5)", "#FF000080"),
        ("~color.alpha(#FF0000, 0.5)", "#FF000080"),
        ("~alpha(#FFF, 0)", "#FFFFFF00"),
        ("~alpha(#FFF, 1)", "#FFFFFF"),
        ("~alpha(#000, 30%)", "#0000004D"),
        ("~alpha(#0000, 0.2)", "#00000033"),
        ("~alpha(rgba(255, 0, 0, 0.2), 1)", "#FF0000"),
        ("~alpha( rgb( 1 , 2 , 3 ) , .25 )", "#01020340"),
        ("  ~alpha (#FFF, 0.5)  ", "#FFFFFF80"),
    ])
    func alphaReplacesTheAlpha(text: String, expected: String) throws {
        #expect(try Self.evaluate(text).description == expected)
    }

    @Test(arguments: [
        // 255 * 0.5 = 127.5 rounds up to 128.
        ("~mix(#FFFFFF, #000000, 0.5)", "#808080"),
        ("~color.mix(#FFFFFF, #000000, 0.5)", "#808080"),
        // red 255 * 0.25 = 63.75 → 64; blue 255 * 0.75 = 191.25 → 191.
        ("~mix(#FF0000, #0000FF, 0.25)", "#4000BF"),
        ("~mix(#FF0000, #0000FF, 1)", "#FF0000"),
        ("~mix(#FF0000, #0000FF, 0)", "#0000FF"),
        ("~mix(#FF0000, #0000FF, 10%)", "#1A00E6"),
        // Alpha mixes too: 255 * 0.5 = 127.5 → 128.
        ("~mix(#FF000000, #FF0000FF, 0.5)", "#FF000080"),
        ("~mix(rgba(0, 0, 0, 0), rgba(100, 200, 50, 1), 0.5)", "#32641980"),
        ("~mix(#102030, #102030, 0.37)", "#102030"),
    ])
    func mixTakesPartOfTheFirstAndTheRestOfTheSecond(text: String, expected: String) throws {
        #expect(try Self.evaluate(text).description == expected)
    }

    @Test func mixMatchesTheFormulaForEveryChannel() throws {
        let first = Color(red: 200, green: 17, blue: 3, alpha: 250)
        let second = Color(red: 9, green: 240, blue: 128, alpha: 20)
        for step in 0...20 {
            let part = Double(step) / 20
            let mixed = try Self.evaluate("~mix(\(first), \(second), \(part))")
            let channel = { (a: UInt8, b: UInt8) in UInt8((Double(a) * part + Double(b) * (1 - part)).rounded()) }
            #expect(mixed.red == channel(first.red, second.red))
            #expect(mixed.green == channel(first.green, second.green))
            #expect(mixed.blue == channel(first.blue, second.blue))
            #expect(mixed.alpha == channel(first.alpha, second.alpha))
        }
    }

    @Test(arguments: [
        ("~alpha(~mix(#FFF, #000, 0.5), 0.5)", "#80808080"),
        ("~mix(~alpha(#FFF, 0), ~alpha(#FFF, 1), 0.5)", "#FFFFFF80"),
        ("~alpha(~alpha(~alpha(#123, 0.1), 0.2), 1)", "#112233"),
    ])
    func callsNest(text: String, expected: String) throws {
        #expect(try Self.evaluate(text).description == expected)
    }

    @Test(arguments: [
        ("~alpha(@colors.text, 0.3)", "#1C1C1E4D"),
        ("~mix(@colors.accent, #FFFFFF, 0.5)", "#85C2FF"),
        ("~alpha(#FFF, @opacity.half)", "#FFFFFF80"),
        ("~alpha(#FFF, @opacity.alias)", "#FFFFFF80"),
        ("~alpha(@colors.muted, 1)", "#1C1C1E"),
        ("~mix(@colors.alias, #000, 1)", "#1C1C1E80"),
        ("@colors.muted", "#1C1C1E80"),
        ("#0A84FF", "#0A84FF"),
    ])
    func referencesAreResolvedAndEvaluatedInTurn(text: String, expected: String) throws {
        #expect(try Self.evaluate(text).description == expected)
    }

    @Test func theResolverGetsPathsWithoutTheAt() throws {
        var asked: [String] = []
        let color = try ColorFunction.evaluate("~mix(@a.b.c, @d, @e)") { path in
            asked.append(path)
            return ["a.b.c": "#FFF", "d": "#000", "e": "1"][path] ?? ""
        }
        #expect(asked == ["a.b.c", "d", "e"])
        #expect(color == .white)
    }

    @Test(arguments: ["~alpha(@colors.nope, 0.5)", "@colors.nope", "~alpha(@colors.missing, 1)", "@colors.missing"])
    func theResolversErrorPropagatesUnchanged(text: String) {
        #expect(throws: Unresolved(path: "colors.nope")) { try Self.evaluate(text) }
    }

    @Test func aValueErrorFromTheResolverIsNotRewordedEither() {
        let resolverError = ValueError("the resolver's own words")
        #expect(throws: resolverError) {
            try ColorFunction.evaluate("~alpha(@outer, 0.5)") { path in
                guard path == "outer" else { throw resolverError }
                return "~mix(@inner, #000, 0.5)"
            }
        }
    }

    static let functions = "expected ~alpha(colour, alpha) or ~mix(colour, colour, part)"
    static let syntaxes = "expected #RGB, #RGBA, #RRGGBB, #RRGGBBAA, rgb(r, g, b) or rgba(r, g, b, a)"
    static let fraction = "expected a number 0...1 or a percentage 0%...100%"

    static let rejected: [(String, String)] = [
        ("~blend(#FFF, 0.5)", "unknown function '~blend': \(functions)"),
        ("~color.blend(#FFF, 0.5)", "unknown function '~color.blend': \(functions)"),
        ("~Alpha(#FFF, 0.5)", "unknown function '~Alpha': \(functions)"),
        ("~", "unknown function '~': \(functions)"),
        ("~alpha", "missing arguments in '~alpha': expected ~alpha(colour, alpha)"),
        ("~mix", "missing arguments in '~mix': expected ~mix(colour, colour, part)"),
        ("~alpha(#FFF)", "~alpha takes 2 arguments (colour, alpha), found 1"),
        ("~alpha(#FFF, 0.5, 1)", "~alpha takes 2 arguments (colour, alpha), found 3"),
        ("~alpha()", "~alpha takes 2 arguments (colour, alpha), found none"),
        ("~mix(#FFF, #000)", "~mix takes 3 arguments (colour, colour, part), found 2"),
        ("~color.mix(#FFF)", "~color.mix takes 3 arguments (colour, colour, part), found 1"),
        ("~alpha(#FFF, 1.5)", "alpha 1.5 is out of range 0...1"),
        ("~alpha(#FFF, -0.5)", "alpha -0.5 is out of range 0...1"),
        ("~alpha(#FFF, 120%)", "alpha 120% is out of range 0%...100%"),
        ("~mix(#FFF, #000, 2)", "part 2 is out of range 0...1"),
        ("~alpha(#FFF, half)", "alpha 'half' is not a number: \(fraction)"),
        ("~mix(#FFF, #000, )", "part is empty: \(fraction)"),
        ("~alpha(#FFF, 0.5", "unbalanced parentheses in '~alpha(#FFF, 0.5': missing ')'"),
        ("~alpha(rgba(0, 0, 0, 0.5), 0.5", "unbalanced parentheses in '~alpha(rgba(0, 0, 0, 0.5), 0.5': missing ')'"),
        ("~alpha(#FFF, 0.5))", "unbalanced parentheses in '~alpha(#FFF, 0.5))': unexpected ')'"),
        (
            "~alpha(#FFF, 0.5) extra",
            "unexpected text 'extra' after the closing ')' of ~alpha in '~alpha(#FFF, 0.5) extra'"
        ),
        ("~alpha(#12345, 0.5)", "invalid colour '#12345': \(syntaxes)"),
        ("~alpha(, 0.5)", "invalid colour '': \(syntaxes)"),
        ("~alpha(rgb(300, 0, 0), 0.5)", "rgb component 300 is out of range 0...255"),
        ("~alpha(@colors.bad, 0.5)", "@colors.bad: invalid colour '#12': \(syntaxes)"),
        ("~alpha(@colors.badCall, 0.5)", "@colors.badCall: alpha 2 is out of range 0...1"),
        ("~alpha(#FFF, @colors.text)", "@colors.text: alpha '#1C1C1E' is not a number: \(fraction)"),
        ("~alpha(@, 0.5)", "invalid reference '@': expected @name or @name.name…"),
        ("~alpha(@colors..text, 0.5)", "invalid reference '@colors..text': expected @name or @name.name…"),
        ("~alpha(@colors.text 2, 0.5)", "invalid reference '@colors.text 2': expected @name or @name.name…"),
        ("@cycle.a", "reference cycle: @cycle.a -> @cycle.b -> @cycle.a"),
        ("~mix(#FFF, @cycle.b, 0.5)", "reference cycle: @cycle.b -> @cycle.a -> @cycle.b"),
        ("@cycle.self", "reference cycle: @cycle.self -> @cycle.self"),
        ("#12", "invalid colour '#12': \(syntaxes)"),
    ]

    @Test(arguments: rejected)
    func rejectsBadExpressionsWithAMessage(text: String, message: String) {
        #expect(throws: ValueError(message)) { try Self.evaluate(text) }
    }

    @Test func deepNestingIsAnErrorNotACrash() throws {
        let depth = 10_000
        let text = String(repeating: "~alpha(", count: depth) + "#FFF" + String(repeating: ", 1)", count: depth)
        #expect(throws: ValueError("colour expression nests deeper than 64 calls and references")) {
            try Self.evaluate(text)
        }
        let allowed = String(repeating: "~alpha(", count: 64) + "#FFF" + String(repeating: ", 1)", count: 64)
        #expect(try Self.evaluate(allowed) == .white)
    }
}
