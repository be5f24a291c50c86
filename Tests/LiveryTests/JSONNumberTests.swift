import Foundation
import Testing

@testable import Livery

/// The JSON reader's numbers against strtod: the reader computes most decimals itself (one
/// exact multiplication or division) and must give the very double strtod gives for every one.
@Suite struct JSONNumberTests {
    /// The double the reader reads `text` as.
    func read(_ text: String) throws -> Double? {
        let node = try SpecReader.read(Data("[\(text)]".utf8), format: .json, source: "t.json")
        guard case .sequence(let items) = node.value, let item = items.first else { return nil }
        switch item.value {
        case .double(let double): return double
        case .int(let int): return Double(int)
        default: return nil
        }
    }

    func expectSame(_ text: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let expected = try #require(Double(text), sourceLocation: sourceLocation)
        let read = try #require(try read(text), sourceLocation: sourceLocation)
        #expect(
            read.bitPattern == expected.bitPattern, "\(text): read \(read), strtod \(expected)",
            sourceLocation: sourceLocation)
    }

    @Test(arguments: [
        "0.5", "-0.0", "0.0", "1.5e3", "1E-3", "2.5e+2", "0.00392156862745098", "0.9019607843137255",
        "9007199254740992.0", "9007199254740993.0", "9007199254740991.5", "1e22", "1e23", "1.0e-22", "1.0e-23",
        "123456789012345678.5", "0.1234567890123456789", "0e400", "-0e-400", "4.9e-324", "1.7976931348623157e308",
        "0.30000000000000004", "0.1", "0.000000000000000000000000000001",
    ])
    func edges(_ text: String) throws {
        try expectSame(text)
    }

    /// Random decimals, written as Swift prints doubles (shortest form) and as a person might:
    /// long fractions, exponents either way, digits past the 2^53 a fast path can take.
    @Test func randomDecimalsMatchStrtod() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<4_000 {
            let shortest = Double.random(in: -1e6...1e6, using: &generator)
            try expectSame("\(shortest)")
            try expectSame("\(Double.random(in: 0...1, using: &generator) / 255)")
            let whole = String(UInt64.random(in: 0...UInt64.max, using: &generator)).prefix(Int.random(in: 1...20))
            let fraction = (0..<Int.random(in: 1...22)).map { _ in String(Int.random(in: 0...9)) }.joined()
            let exponent = Bool.random() ? "" : "e\(Int.random(in: -40...40))"
            let text = String(whole) + "." + fraction + exponent
            try expectSame(text)
        }
    }
}
