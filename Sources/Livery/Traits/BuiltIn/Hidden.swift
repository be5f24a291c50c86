/// Hides or shows a target: `{ type: Hidden, hidden: true }`.
public struct Hidden: Trait {
    /// `Hidden`.
    public static let typeName = "Hidden"
    /// Whether the target is hidden.
    public var hidden: Bool

    /// Creates the trait.
    public init(hidden: Bool) { self.hidden = hidden }

    /// Sets the flag; the reversal puts the old one back.
    public func apply(to target: any HasHidden) throws -> Reversal<any HasHidden> {
        let old = target.isHidden
        target.isHidden = hidden
        return Reversal { $0.isHidden = old }
    }
}
