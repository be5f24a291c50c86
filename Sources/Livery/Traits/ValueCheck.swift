/// A range a ``TraitProperty``'s number must lie in, checked where a spec is read and written into
/// the JSON Schema.
public enum ValueCheck: Sendable, Equatable {
    /// At least the bound.
    case atLeast(Double)
    /// Greater than the bound.
    case greaterThan(Double)
    /// Within the range.
    case within(ClosedRange<Double>)

    /// Why `value` fails the check; nil if it passes.
    func failure(_ value: Double) -> String? {
        switch self {
        case .atLeast(let bound): value >= bound ? nil : "\(value) must be at least \(Self.text(bound))"
        case .greaterThan(let bound): value > bound ? nil : "\(value) must be greater than \(Self.text(bound))"
        case .within(let range):
            range.contains(value)
                ? nil : "\(value) is out of range \(Self.text(range.lowerBound))...\(Self.text(range.upperBound))"
        }
    }

    /// The check's JSON Schema keywords, such as `"minimum": 0`.
    var schemaKeywords: String {
        switch self {
        case .atLeast(let bound): "\"minimum\": \(Self.text(bound))"
        case .greaterThan(let bound): "\"exclusiveMinimum\": \(Self.text(bound))"
        case .within(let range):
            "\"minimum\": \(Self.text(range.lowerBound)), \"maximum\": \(Self.text(range.upperBound))"
        }
    }

    /// 0 rather than 0.0: bounds read as a spec writes them.
    private static func text(_ bound: Double) -> String {
        bound == bound.rounded() && abs(bound) < 1e15 ? String(Int(bound)) : String(bound)
    }
}
