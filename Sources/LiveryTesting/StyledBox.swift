import Livery

/// A target that adopts every built-in capability and `Tweakable`, and records each change,
/// for tests of specs, providers and custom tooling.
public final class StyledBox: HasBackgroundColor, HasCornerRadius, HasDropShadow, HasFont, HasConstant,
    HasBorder, HasOpacity, HasHidden, HasPadding, Tweakable
{
    /// A copy of every styleable property, to compare states.
    public struct Snapshot: Hashable, Sendable {
        public var backgroundColor: Color
        public var cornerRadius: Double
        public var shadowColor: Color
        public var shadowOffset: Size
        public var shadowOpacity: Double
        public var shadowRadius: Double
        public var textColor: Color
        public var font: Font
        public var constant: Double
        public var borderColor: Color
        public var borderWidth: Double
        public var opacity: Double
        public var isHidden: Bool
        public var padding: Insets
        public var retries: Int
        public var timeout: Double
        public var label: String
    }

    /// Names of the properties set, in order, for tests that count the work done.
    public private(set) var changes: [String] = []

    public var backgroundColor: Color = .white { didSet { changes.append("backgroundColor") } }
    public var cornerRadius: Double = 0 { didSet { changes.append("cornerRadius") } }
    public var shadowColor: Color = .black { didSet { changes.append("shadowColor") } }
    public var shadowOffset: Size = .zero { didSet { changes.append("shadowOffset") } }
    public var shadowOpacity: Double = 0 { didSet { changes.append("shadowOpacity") } }
    public var shadowRadius: Double = 0 { didSet { changes.append("shadowRadius") } }
    public var textColor: Color = .black { didSet { changes.append("textColor") } }
    public var font = Font(name: "System", size: 17, weight: .regular) { didSet { changes.append("font") } }
    public var constant: Double = 0 { didSet { changes.append("constant") } }
    public var borderColor: Color = .clear { didSet { changes.append("borderColor") } }
    public var borderWidth: Double = 0 { didSet { changes.append("borderWidth") } }
    public var opacity: Double = 1 { didSet { changes.append("opacity") } }
    public var isHidden = false { didSet { changes.append("isHidden") } }
    public var padding: Insets = .zero { didSet { changes.append("padding") } }
    public var retries = 3 { didSet { changes.append("retries") } }
    public var timeout = 1.5 { didSet { changes.append("timeout") } }
    public var label = "" { didSet { changes.append("label") } }

    /// `retries` (Int), `timeout` (Double) and `label` (String), for `Set`.
    public static let tweakables: [String: Tweak<StyledBox>] = [
        "retries": .keyPath(\.retries),
        "timeout": .keyPath(\.timeout),
        "label": .keyPath(\.label),
    ]

    /// A box in its default state.
    public init() {}

    /// Forgets the recorded changes.
    public func clearChanges() { changes.removeAll() }

    /// The current state.
    public var snapshot: Snapshot {
        get {
            Snapshot(
                backgroundColor: backgroundColor, cornerRadius: cornerRadius, shadowColor: shadowColor,
                shadowOffset: shadowOffset, shadowOpacity: shadowOpacity, shadowRadius: shadowRadius,
                textColor: textColor, font: font, constant: constant, borderColor: borderColor,
                borderWidth: borderWidth, opacity: opacity, isHidden: isHidden, padding: padding,
                retries: retries, timeout: timeout, label: label)
        }
        set {
            backgroundColor = newValue.backgroundColor
            cornerRadius = newValue.cornerRadius
            shadowColor = newValue.shadowColor
            shadowOffset = newValue.shadowOffset
            shadowOpacity = newValue.shadowOpacity
            shadowRadius = newValue.shadowRadius
            textColor = newValue.textColor
            font = newValue.font
            constant = newValue.constant
            borderColor = newValue.borderColor
            borderWidth = newValue.borderWidth
            opacity = newValue.opacity
            isHidden = newValue.isHidden
            padding = newValue.padding
            retries = newValue.retries
            timeout = newValue.timeout
            label = newValue.label
        }
    }
}

/// A target with no capabilities at all, for Livery's own tests of capability errors.
package final class PlainObject {
    /// Creates one.
    package init() {}
}
