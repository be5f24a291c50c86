import Livery
import PropertyBased
import Testing

@Suite struct ColorTests {
    static let accepted: [(String, Color)] = [
        ("#F00", Color(red: 255, green: 0, blue: 0)),
        ("#f00", Color(red: 255, green: 0, blue: 0)),
        ("#F008", Color(red: 255, green: 0, blue: 0, alpha: 0x88)),
        ("#FF0000", Color(red: 255, green: 0, blue: 0)),
        ("#0A84FF", Color(red: 0x0A, green: 0x84, blue: 0xFF)),
        ("#0a84ff", Color(red: 0x0A, green: 0x84, blue: 0xFF)),
        ("#AbCdEf", Color(red: 0xAB, green: 0xCD, blue: 0xEF)),
        ("#ff000080", Color(red: 255, green: 0, blue: 0, alpha: 0x80)),
        ("#00000000", Color.clear),
        ("#1234", Color(red: 0x11, green: 0x22, blue: 0x33, alpha: 0x44)),
        ("#12345678", Color(red: 0x12, green: 0x34, blue: 0x56, alpha: 0x78)),
        ("  #FFF\n", Color.white),
        ("rgb(255, 0, 0)", Color(red: 255, green: 0, blue: 0)),
        ("RGB(255,0,0)", Color(red: 255, green: 0, blue: 0)),
        ("Rgb( 10 ,20 , 30 )", Color(red: 10, green: 20, blue: 30)),
        ("rgb (1, 2, 3)", Color(red: 1, green: 2, blue: 3)),
        ("rgb(0, 255.0, 0)", Color(red: 0, green: 255, blue: 0)),
        ("rgb(100%, 50%, 0%)", Color(red: 255, green: 128, blue: 0)),
        ("rgb(10%, 20 %, 30%)", Color(red: 26, green: 51, blue: 77)),
        ("rgba(0, 0, 0, 0.5)", Color(red: 0, green: 0, blue: 0, alpha: 128)),
        ("rgba(0,0,0,0)", Color.clear),
        ("rgba(255, 255, 255, 1)", Color.white),
        ("rgba(0, 0, 0, 50%)", Color(red: 0, green: 0, blue: 0, alpha: 128)),
        ("RGBA(1, 2, 3, .25)", Color(red: 1, green: 2, blue: 3, alpha: 64)),
        ("rgbA( 1 , 2 , 3 , 1. )", Color(red: 1, green: 2, blue: 3)),
    ]

    @Test(arguments: accepted)
    func parsesEverySyntax(text: String, expected: Color) throws {
        #expect(try Color(parsing: text) == expected)
    }

    static let syntaxes = "expected #RGB, #RGBA, #RRGGBB, #RRGGBBAA, rgb(r, g, b) or rgba(r, g, b, a)"
    static let component = "expected an integer 0...255 or a percentage 0%...100%"
    static let fraction = "expected a number 0...1 or a percentage 0%...100%"

    static let rejected: [(String, String)] = [
        ("", "invalid colour '': \(syntaxes)"),
        ("#", "invalid colour '#': \(syntaxes)"),
        ("#12345", "invalid colour '#12345': \(syntaxes)"),
        ("#1234567", "invalid colour '#1234567': \(syntaxes)"),
        ("#123456789", "invalid colour '#123456789': \(syntaxes)"),
        ("FF0000", "invalid colour 'FF0000': \(syntaxes)"),
        ("red", "invalid colour 'red': \(syntaxes)"),
        ("hsl(0, 0%, 0%)", "invalid colour 'hsl(0, 0%, 0%)': \(syntaxes)"),
        ("#GGG", "invalid colour '#GGG': expected hexadecimal digits 0-9 and A-F after '#', found 'G'"),
        ("#12 456", "invalid colour '#12 456': expected hexadecimal digits 0-9 and A-F after '#', found ' '"),
        (
            "#FFFFFF00extra",
            "invalid colour '#FFFFFF00extra': expected hexadecimal digits 0-9 and A-F after '#', found 'x'"
        ),
        ("#１２３", "invalid colour '#１２３': expected hexadecimal digits 0-9 and A-F after '#', found '１'"),
        // A combining mark makes one character with the digit before it, and with the `#`.
        (
            "#FF\u{301}F",
            "invalid colour '#FF\u{301}F': expected hexadecimal digits 0-9 and A-F after '#', found 'F\u{301}'"
        ),
        ("#\u{301}FFF", "invalid colour '#\u{301}FFF': \(syntaxes)"),
        ("rgb(300, 0, 0)", "rgb component 300 is out of range 0...255"),
        ("rgb(0, -1, 0)", "rgb component -1 is out of range 0...255"),
        ("rgb(0, 0, 150%)", "rgb component 150% is out of range 0%...100%"),
        ("rgb(1.5, 0, 0)", "rgb component 1.5 is not an integer: \(component)"),
        ("rgb(x, 0, 0)", "rgb component 'x' is not a number: \(component)"),
        ("rgb(1e2, 0, 0)", "rgb component '1e2' is not a number: \(component)"),
        ("rgb(inf, 0, 0)", "rgb component 'inf' is not a number: \(component)"),
        ("rgb(0x10, 0, 0)", "rgb component '0x10' is not a number: \(component)"),
        ("rgb(%, 0, 0)", "rgb component '%' is not a number: \(component)"),
        ("rgb(1, , 3)", "rgb component is empty: \(component)"),
        ("rgb(1, 2)", "rgb takes 3 components (r, g, b), found 2"),
        ("rgb()", "rgb takes 3 components (r, g, b), found none"),
        (
            "rgb(1, 2, 3, 0.5)",
            "rgb takes 3 components (r, g, b), found 4; use rgba(r, g, b, a) for a colour with alpha"
        ),
        ("rgba(1, 2, 3)", "rgba takes 4 components (r, g, b, a), found 3"),
        ("rgb(1, 2, 3", "invalid colour 'rgb(1, 2, 3': missing ')' after the rgb components"),
        ("rgb(1, 2, 3) x", "invalid colour 'rgb(1, 2, 3) x': unexpected text 'x' after ')'"),
        ("rgba(0, 0, 0, 1.5)", "alpha 1.5 is out of range 0...1"),
        ("rgba(0, 0, 0, -0.1)", "alpha -0.1 is out of range 0...1"),
        ("rgba(0, 0, 0, 150%)", "alpha 150% is out of range 0%...100%"),
        ("rgba(0, 0, 0, half)", "alpha 'half' is not a number: \(fraction)"),
        ("rgba(0, 0, 0, )", "alpha is empty: \(fraction)"),
    ]

    @Test(arguments: rejected)
    func rejectsInvalidColoursWithAMessage(text: String, message: String) {
        #expect(throws: ValueError(message)) { try Color(parsing: text) }
    }

    @Test(arguments: [
        (Color(red: 255, green: 0, blue: 0), "#FF0000"),
        (Color(red: 0x0A, green: 0x84, blue: 0xFF), "#0A84FF"),
        (Color(red: 0xAB, green: 0xCD, blue: 0xEF, alpha: 0x80), "#ABCDEF80"),
        (Color.white, "#FFFFFF"),
        (Color.black, "#000000"),
        (Color.clear, "#00000000"),
    ])
    func printsCanonically(color: Color, text: String) {
        #expect(color.description == text)
        #expect("\(color)" == text)
    }

    /// Any colour, every channel uniformly random.
    static let anyColor = zip(Gen<UInt8>.value(), Gen<UInt8>.value(), Gen<UInt8>.value(), Gen<UInt8>.value())
        .map { Color(red: $0.0, green: $0.1, blue: $0.2, alpha: $0.3) }

    @Test func parsingTheDescriptionGivesTheSameColour() async {
        await propertyCheck(count: 500, input: Self.anyColor) { color in
            let parsed = try Color(parsing: color.description)
            #expect(parsed == color)
            #expect(Color(hex: color.description) == color)
        }
    }

    @Test func alphaDefaultsToOpaque() {
        #expect(Color(red: 1, green: 2, blue: 3).alpha == 255)
    }

    @Test(
        arguments: [
            ("#FF0000", Color(red: 255, green: 0, blue: 0)),
            ("FF0000", Color(red: 255, green: 0, blue: 0)),
            ("#fff8", Color(red: 255, green: 255, blue: 255, alpha: 0x88)),
            ("#12345", nil),
            ("rgb(1, 2, 3)", nil),
            (" #FF0000", nil),
            ("", nil),
        ] as [(String, Color?)]
    )
    func readsHexOnlyWithInitHex(text: String, expected: Color?) {
        #expect(Color(hex: text) == expected)
    }

    @Test func comparesWithAHexLiteral() {
        #expect(Color(red: 255, green: 0, blue: 0) == Color(hex: "#FF0000"))
    }

    @Test(arguments: [
        ("\"#0A84FF\"", Color(red: 0x0A, green: 0x84, blue: 0xFF)),
        ("\"rgba(0, 0, 0, 0.5)\"", Color(red: 0, green: 0, blue: 0, alpha: 128)),
        ("\"#fff\"", Color.white),
    ])
    func decodesFromAString(json: String, expected: Color) throws {
        #expect(try decode(Color.self, from: json) == expected)
    }

    @Test(arguments: [Color.white, .black, .clear, Color(red: 1, green: 2, blue: 3, alpha: 4)])
    func encodesTheCanonicalStringAndDecodesItBack(color: Color) throws {
        let json = try encode(color)
        #expect(json == "\"\(color.description)\"")
        #expect(try decode(Color.self, from: json) == color)
    }

    @Test func anInvalidStringIsDataCorruptedWithTheParseMessage() {
        let failure = decodingFailure(Color.self, from: "\"#12345\"")
        #expect(
            failure
                == DecodingFailure(
                    kind: "dataCorrupted",
                    path: "value",
                    message: "invalid colour '#12345': \(Self.syntaxes)"
                )
        )
    }

    @Test(arguments: ["12", "true", "[255, 0, 0]", #"{"red": 255}"#])
    func aValueThatIsNotAStringIsATypeMismatch(json: String) {
        #expect(decodingFailure(Color.self, from: json)?.kind == "typeMismatch")
    }

    @Test func nullIsValueNotFound() {
        #expect(decodingFailure(Color.self, from: "null")?.kind == "valueNotFound")
    }
}
