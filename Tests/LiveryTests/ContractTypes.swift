import Livery

// The types of the public contract (README, quick start, and the custom trait of WritingACustomTrait, word for word
// between the sample markers: Tests/Docs/check_docs.py). They live in a file that imports only
// Livery: Swift Testing also declares a `Trait` protocol, so in a file importing both, a custom
// trait is written `Livery.Trait`.

final class Card: HasBackgroundColor, HasCornerRadius {
    var backgroundColor: Color = .white
    var cornerRadius: Double = 0
}

// sample: Sources/Livery/Livery.docc/WritingACustomTrait.md
final class Cursor { var blinkInterval = 0.5 }

struct Blink: Trait {
    static let typeName = "Blink"
    var interval: Double
    func apply(to cursor: Cursor) throws -> Reversal<Cursor> {
        let old = cursor.blinkInterval
        cursor.blinkInterval = interval
        return Reversal { $0.blinkInterval = old }
    }
}
// sample end
