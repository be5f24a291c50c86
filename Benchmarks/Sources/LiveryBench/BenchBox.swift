import Livery

/// The target the apply figures style: plain stored properties, one per trait used.
///
/// Not LiveryTesting's `StyledBox`: its `didSet` observers append a `String` to a log on every
/// change, which would cost both the engine and the hand-written loop the same large amount
/// and hide the engine's own overhead (and grow without bound over thousands of loads).
final class BenchBox: HasBackgroundColor, HasCornerRadius, HasOpacity, HasPadding, HasConstant {
    var backgroundColor: Color = .white
    var cornerRadius: Double = 0
    var opacity: Double = 1
    var padding: Insets = .zero
    var constant: Double = 0

    /// The state the five traits touch.
    var values: BoxValues {
        BoxValues(
            backgroundColor: backgroundColor, cornerRadius: cornerRadius, opacity: opacity, padding: padding,
            constant: constant)
    }

    /// A number that depends on every property, to keep the optimiser honest and compare states.
    var checksum: Double {
        Double(backgroundColor.red) + Double(backgroundColor.green) * 3 + Double(backgroundColor.blue) * 7
            + cornerRadius * 11 + opacity * 13 + padding.top * 17 + padding.left * 19 + padding.bottom * 23
            + padding.right * 29 + constant * 31
    }
}

/// The values of the five traits for one identifier (what a spec sets), or a saved state.
struct BoxValues: Equatable, Sendable {
    var backgroundColor: Color
    var cornerRadius: Double
    var opacity: Double
    var padding: Insets
    var constant: Double

    static let pristine = BenchBox().values

    /// Deterministic, distinct values for target `index` under spec `variant` (0 = A, 1 = B,
    /// 2 = C, …). Every number is exact in binary, so text round trips change nothing.
    static func make(index: Int, variant: Int) -> BoxValues {
        let seed = index &* 2_654_435_761 &+ variant &* 40_503
        let red = UInt8(truncatingIfNeeded: seed)
        let green = UInt8(truncatingIfNeeded: seed >> 8)
        let blue = UInt8(truncatingIfNeeded: seed >> 16 ^ variant)
        return BoxValues(
            backgroundColor: Color(red: red, green: green, blue: blue),
            cornerRadius: Double((index + variant * 7) % 24 + 1),
            opacity: Double((index + variant * 3) % 8) / 8,
            padding: Insets(
                top: Double(variant * 2 + 4), left: Double(index % 16 + variant),
                bottom: Double(variant * 2 + 4), right: Double(index % 16 + variant)),
            constant: Double(index % 100 + variant * 100) / 4)
    }

    /// The five traits as one spec entry, in JSON.
    var specJSON: String {
        let color = backgroundColor.description
        let insets =
            "{\"top\":\(padding.top),\"left\":\(padding.left),\"bottom\":\(padding.bottom),\"right\":\(padding.right)}"
        return "[{\"type\":\"BackgroundColor\",\"color\":\"\(color)\"},"
            + "{\"type\":\"CornerRadius\",\"radius\":\(cornerRadius)},"
            + "{\"type\":\"Opacity\",\"opacity\":\(opacity)},"
            + "{\"type\":\"Padding\",\"insets\":\(insets)},"
            + "{\"type\":\"Constraint\",\"constant\":\(constant)}]"
    }
}

/// The hand-written equivalent of a load: for every target, put back what the previous values
/// replaced (newest first, as the engine does), remember the current values and assign the new
/// ones. Exactly the property reads and writes the engine's reversals and traits do, with none
/// of its bookkeeping.
struct HandStyler {
    let boxes: [BenchBox]
    /// What each box had before the current values were assigned (nil: never assigned).
    private var saved: [BoxValues?]

    init(boxes: [BenchBox]) {
        self.boxes = boxes
        self.saved = Array(repeating: nil, count: boxes.count)
    }

    /// Reverts the values assigned last and assigns `values[i]` to box `i`.
    mutating func switchTo(_ values: [BoxValues]) {
        for index in boxes.indices {
            let box = boxes[index]
            if let old = saved[index] {
                box.constant = old.constant
                box.padding = old.padding
                box.opacity = old.opacity
                box.cornerRadius = old.cornerRadius
                box.backgroundColor = old.backgroundColor
            }
            let new = values[index]
            var old = BoxValues.pristine
            old.backgroundColor = box.backgroundColor
            box.backgroundColor = new.backgroundColor
            old.cornerRadius = box.cornerRadius
            box.cornerRadius = new.cornerRadius
            old.opacity = box.opacity
            box.opacity = new.opacity
            old.padding = box.padding
            box.padding = new.padding
            old.constant = box.constant
            box.constant = new.constant
            saved[index] = old
        }
    }

    /// Assigns `values[i]` to box `i` and nothing else: what a program switching between two
    /// looks by hand writes, and what the engine writes when an edit keeps every target's traits
    /// (new values set in place). It keeps nothing to undo with.
    func assignOnly(_ values: [BoxValues]) {
        for index in boxes.indices {
            let box = boxes[index]
            let new = values[index]
            box.backgroundColor = new.backgroundColor
            box.cornerRadius = new.cornerRadius
            box.opacity = new.opacity
            box.padding = new.padding
            box.constant = new.constant
        }
    }
}
