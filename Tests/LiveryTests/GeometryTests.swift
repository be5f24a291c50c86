import Livery
import Testing

/// The geometry values, one suite each, grouped so `swift test --filter Geometry` runs them all.
@Suite struct GeometryTests {
    @Suite struct SizeTests {
        @Test(arguments: [
            (#"{"width": 0, "height": 2}"#, Size(width: 0, height: 2)),
            (#"{"height": -1.5, "width": 3}"#, Size(width: 3, height: -1.5)),
            ("[0, 2]", Size(width: 0, height: 2)),
            ("[10.5, 20]", Size(width: 10.5, height: 20)),
        ])
        func decodesAMappingOrAList(json: String, expected: Size) throws {
            #expect(try decode(Size.self, from: json) == expected)
        }

        @Test func encodesAMappingAndDecodesItBack() throws {
            let size = Size(width: 0, height: 2.5)
            let json = try encode(size)
            #expect(json == #"{"height":2.5,"width":0}"#)
            #expect(try decode(Size.self, from: json) == size)
        }

        @Test func zeroIsZero() {
            #expect(Size.zero == Size(width: 0, height: 0))
        }

        static let expected = "expected a mapping {width, height} or a list [width, height]"

        @Test(arguments: [
            ("\"big\"", DecodingFailure(kind: "typeMismatch", path: "value", message: expected)),
            ("5", DecodingFailure(kind: "typeMismatch", path: "value", message: expected)),
            ("true", DecodingFailure(kind: "typeMismatch", path: "value", message: expected)),
            ("null", DecodingFailure(kind: "valueNotFound", path: "value", message: expected)),
            (
                "[1, 2, 3]",
                DecodingFailure(
                    kind: "dataCorrupted",
                    path: "value",
                    message: "expected a list of 2 numbers [width, height], found 3"
                )
            ),
            (
                "[1]",
                DecodingFailure(
                    kind: "dataCorrupted",
                    path: "value",
                    message: "expected a list of 2 numbers [width, height], found 1"
                )
            ),
            (
                "[]",
                DecodingFailure(
                    kind: "dataCorrupted",
                    path: "value",
                    message: "expected a list of 2 numbers [width, height], found 0"
                )
            ),
        ])
        func aWrongShapeSaysWhatWasExpected(json: String, failure: DecodingFailure) {
            #expect(decodingFailure(Size.self, from: json) == failure)
        }

        @Test func aMissingFieldIsReportedAtTheField() {
            #expect(decodingFailure(Size.self, from: #"{"width": 1}"#)?.kind == "keyNotFound(height)")
        }

        @Test func aFieldOfTheWrongTypeIsReportedAtTheField() {
            let failure = decodingFailure(Size.self, from: #"{"width": "wide", "height": 1}"#)
            #expect(failure?.kind == "typeMismatch")
            #expect(failure?.path == "value.width")
        }

        @Test func aListElementOfTheWrongTypeIsReportedAtTheElement() {
            let failure = decodingFailure(Size.self, from: #"[1, "two"]"#)
            #expect(failure?.kind == "typeMismatch")
            #expect(failure?.path == "value.1")
        }
    }

    @Suite struct PointTests {
        @Test(arguments: [
            (#"{"x": 10, "y": 20}"#, Point(x: 10, y: 20)),
            ("[10, 20]", Point(x: 10, y: 20)),
            ("[-1.25, 0]", Point(x: -1.25, y: 0)),
        ])
        func decodesAMappingOrAList(json: String, expected: Point) throws {
            #expect(try decode(Point.self, from: json) == expected)
        }

        @Test func encodesAMappingAndDecodesItBack() throws {
            let point = Point(x: -3, y: 4.5)
            let json = try encode(point)
            #expect(json == #"{"x":-3,"y":4.5}"#)
            #expect(try decode(Point.self, from: json) == point)
        }

        @Test func zeroIsTheOrigin() {
            #expect(Point.zero == Point(x: 0, y: 0))
        }

        @Test(arguments: [
            (
                "\"10,20\"",
                DecodingFailure(
                    kind: "typeMismatch",
                    path: "value",
                    message: "expected a mapping {x, y} or a list [x, y]"
                )
            ),
            (
                "[1, 2, 3]",
                DecodingFailure(
                    kind: "dataCorrupted",
                    path: "value",
                    message: "expected a list of 2 numbers [x, y], found 3"
                )
            ),
        ])
        func aWrongShapeSaysWhatWasExpected(json: String, failure: DecodingFailure) {
            #expect(decodingFailure(Point.self, from: json) == failure)
        }

        @Test func aMissingFieldIsReportedAtTheField() {
            #expect(decodingFailure(Point.self, from: #"{"y": 1}"#)?.kind == "keyNotFound(x)")
        }
    }

    @Suite struct InsetsTests {
        @Test(arguments: [
            (#"{"top": 1, "left": 2, "bottom": 3, "right": 4}"#, Insets(top: 1, left: 2, bottom: 3, right: 4)),
            ("[1, 2, 3, 4]", Insets(top: 1, left: 2, bottom: 3, right: 4)),
            ("8", Insets(top: 8, left: 8, bottom: 8, right: 8)),
            ("0.5", Insets(all: 0.5)),
        ])
        func decodesAMappingAListOrANumber(json: String, expected: Insets) throws {
            #expect(try decode(Insets.self, from: json) == expected)
        }

        @Test func encodesAMappingAndDecodesItBack() throws {
            let insets = Insets(top: 1, left: 2, bottom: 3, right: 4.5)
            let json = try encode(insets)
            #expect(json == #"{"bottom":3,"left":2,"right":4.5,"top":1}"#)
            #expect(try decode(Insets.self, from: json) == insets)
        }

        @Test func zeroHasNoInsetOnAnyEdge() {
            #expect(Insets.zero == Insets(top: 0, left: 0, bottom: 0, right: 0))
        }

        static let expected =
            "expected a mapping {top, left, bottom, right}, a list [top, left, bottom, right] or a single number"
        static let fourNumbers = "expected a list of 4 numbers [top, left, bottom, right]"

        @Test(arguments: [
            ("\"8\"", DecodingFailure(kind: "typeMismatch", path: "value", message: expected)),
            ("false", DecodingFailure(kind: "typeMismatch", path: "value", message: expected)),
            ("null", DecodingFailure(kind: "valueNotFound", path: "value", message: expected)),
            ("[1, 2]", DecodingFailure(kind: "dataCorrupted", path: "value", message: "\(fourNumbers), found 2")),
            (
                "[1, 2, 3, 4, 5]",
                DecodingFailure(kind: "dataCorrupted", path: "value", message: "\(fourNumbers), found 5")
            ),
        ])
        func aWrongShapeSaysWhatWasExpected(json: String, failure: DecodingFailure) {
            #expect(decodingFailure(Insets.self, from: json) == failure)
        }

        @Test func aPartialMappingIsAnErrorNotZeroes() {
            #expect(decodingFailure(Insets.self, from: #"{"top": 8}"#)?.kind == "keyNotFound(left)")
        }

        @Test func aFieldOfTheWrongTypeIsReportedAtTheField() {
            let failure = decodingFailure(Insets.self, from: #"{"top": 1, "left": [2], "bottom": 3, "right": 4}"#)
            #expect(failure?.kind == "typeMismatch")
            #expect(failure?.path == "value.left")
        }
    }
}
