import Livery
import LiveryTestSupport
import Testing

@Suite struct FontWeightTests {
    static let numbers: [(FontWeight, Int)] = [
        (.ultraLight, 100), (.thin, 200), (.light, 300), (.regular, 400), (.medium, 500),
        (.semibold, 600), (.bold, 700), (.heavy, 800), (.black, 900),
    ]

    @Test(arguments: numbers)
    func mapsToCSSNumbers(weight: FontWeight, number: Int) throws {
        #expect(weight.numericValue == number)
        #expect(FontWeight(numericValue: number) == weight)
        #expect(try FontWeight(parsing: String(number)) == weight)
    }

    @Test func listsEveryWeightLightestFirst() {
        #expect(FontWeight.allCases.map(\.numericValue) == Array(stride(from: 100, through: 900, by: 100)))
    }

    @Test(arguments: [0, 50, 450, 1000, -100, 950])
    func otherNumbersAreNoWeight(number: Int) {
        #expect(FontWeight(numericValue: number) == nil)
    }

    @Test(arguments: [
        ("bold", FontWeight.bold), ("Bold", .bold), ("SEMIBOLD", .semibold), ("semiBold", .semibold),
        ("ultraLight", .ultraLight), ("ultralight", .ultraLight), ("black", .black), ("700", .bold),
    ])
    func parsesNamesInAnyCase(text: String, expected: FontWeight) throws {
        #expect(try FontWeight(parsing: text) == expected)
    }

    static let expected =
        "expected one of ultraLight, thin, light, regular, medium, semibold, bold, heavy, black"
        + " or a number 100...900 in steps of 100"

    @Test(arguments: [
        ("bolder", "unknown font weight 'bolder': \(expected)"),
        ("", "unknown font weight '': \(expected)"),
        ("semi bold", "unknown font weight 'semi bold': \(expected)"),
        ("450", "unknown font weight 450: \(expected)"),
        ("700.5", "unknown font weight 700.5: \(expected)"),
        ("1000", "unknown font weight 1000: \(expected)"),
    ])
    func rejectsUnknownWeightsListingTheKnownOnes(text: String, message: String) {
        #expect(throws: ValueError(message)) { try FontWeight(parsing: text) }
    }

    @Test(arguments: [
        ("\"bold\"", FontWeight.bold), ("\"SemiBold\"", .semibold), ("700", .bold), ("100", .ultraLight),
        ("900.0", .black), ("\"300\"", .light),
    ])
    func decodesANameOrANumber(json: String, expected: FontWeight) throws {
        #expect(try decode(FontWeight.self, from: json) == expected)
    }

    @Test(arguments: FontWeight.allCases)
    func encodesItsNameAndDecodesItBack(weight: FontWeight) throws {
        let json = try encode(weight)
        #expect(json == "\"\(weight.rawValue)\"")
        #expect(try decode(FontWeight.self, from: json) == weight)
    }

    @Test(arguments: [
        ("\"bolder\"", "unknown font weight 'bolder': \(expected)"),
        ("450", "unknown font weight 450: \(expected)"),
        ("-1", "unknown font weight -1: \(expected)"),
    ])
    func anUnknownWeightIsDataCorrupted(json: String, message: String) {
        let failure = decodingFailure(FontWeight.self, from: json)
        #expect(failure == DecodingFailure(kind: "dataCorrupted", path: "value", message: message))
    }

    @Test(arguments: ["true", "[700]", #"{"weight": 700}"#])
    func aValueOfAnotherTypeIsATypeMismatch(json: String) {
        let failure = decodingFailure(FontWeight.self, from: json)
        #expect(
            failure
                == DecodingFailure(
                    kind: "typeMismatch",
                    path: "value",
                    message: "expected a font weight name or number: \(Self.expected)"
                )
        )
    }
}

@Suite struct FontTests {
    @Test(arguments: [
        (#"{"name": "Inter", "size": 18, "weight": "semibold"}"#, Font(name: "Inter", size: 18, weight: .semibold)),
        (#"{"name": "Inter", "size": 18}"#, Font(name: "Inter", size: 18, weight: .regular)),
        (#"{"name": "Menlo", "size": 11.5, "weight": 700}"#, Font(name: "Menlo", size: 11.5, weight: .bold)),
        (#"{"name": "Inter", "size": 18, "weight": null}"#, Font(name: "Inter", size: 18)),
    ])
    func decodesAMapping(json: String, expected: Font) throws {
        #expect(try decode(Font.self, from: json) == expected)
    }

    @Test func encodesAMappingAndDecodesItBack() throws {
        let font = Font(name: "Inter", size: 18.5, weight: .heavy)
        let json = try encode(font)
        #expect(json == #"{"name":"Inter","size":18.5,"weight":"heavy"}"#)
        #expect(try decode(Font.self, from: json) == font)
    }

    @Test func theDefaultIsTheSystemFontAtSeventeenPoints() {
        #expect(Font.default == Font(name: "System", size: 17, weight: .regular))
        #expect(Font.system(size: 12, weight: .bold) == Font(name: Font.systemName, size: 12, weight: .bold))
        #expect(Font(name: "Inter", size: 18).weight == .regular)
    }

    @Test(arguments: [
        (
            #"{"name": "Inter", "size": 0}"#,
            DecodingFailure(
                kind: "dataCorrupted",
                path: "value.size",
                message: "font size must be greater than 0, found 0"
            )
        ),
        (
            #"{"name": "Inter", "size": -2.5}"#,
            DecodingFailure(
                kind: "dataCorrupted",
                path: "value.size",
                message: "font size must be greater than 0, found -2.5"
            )
        ),
        (
            #"{"name": "", "size": 12}"#,
            DecodingFailure(kind: "dataCorrupted", path: "value.name", message: "font name must not be empty")
        ),
        (
            #"{"name": "Inter", "size": 12, "weight": "bolder"}"#,
            DecodingFailure(
                kind: "dataCorrupted",
                path: "value.weight",
                message: "unknown font weight 'bolder': \(FontWeightTests.expected)"
            )
        ),
    ])
    func rejectsInvalidFields(json: String, failure: DecodingFailure) {
        #expect(decodingFailure(Font.self, from: json) == failure)
    }

    @Test(arguments: [
        (#"{"size": 12}"#, "keyNotFound(name)", "value"),
        (#"{"name": "Inter"}"#, "keyNotFound(size)", "value"),
        (#"{"name": "Inter", "size": "big"}"#, "typeMismatch", "value.size"),
        (#"{"name": 12, "size": 12}"#, "typeMismatch", "value.name"),
        (#""Inter 12""#, "typeMismatch", "value"),
        ("[\"Inter\", 12]", "typeMismatch", "value"),
    ])
    func wrongTypesAndMissingFieldsAreReported(json: String, kind: String, path: String) {
        let failure = decodingFailure(Font.self, from: json)
        #expect(failure?.kind == kind)
        #expect(failure?.path == path)
    }
}
