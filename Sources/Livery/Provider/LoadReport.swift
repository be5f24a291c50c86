/// What a load or a theme switch changed.
public struct LoadReport: Sendable, Equatable, CustomStringConvertible {
    /// Identifiers whose resolved traits changed, in document order (removed ones last).
    public var changedIdentifiers: [String]
    /// How many registered targets were restyled.
    public var targetsTouched: Int
    /// How many traits were applied.
    public var traitsApplied: Int
    /// How many traits were reverted.
    public var traitsReverted: Int
    /// The theme now active.
    public var theme: String?

    /// Creates a report.
    public init(
        changedIdentifiers: [String] = [], targetsTouched: Int = 0, traitsApplied: Int = 0,
        traitsReverted: Int = 0, theme: String? = nil
    ) {
        self.changedIdentifiers = changedIdentifiers
        self.targetsTouched = targetsTouched
        self.traitsApplied = traitsApplied
        self.traitsReverted = traitsReverted
        self.theme = theme
    }

    /// One line: `3 identifiers changed, 12 targets, +40 −38 traits`.
    public var description: String {
        let identifiers = changedIdentifiers.count == 1 ? "1 identifier" : "\(changedIdentifiers.count) identifiers"
        let targets = targetsTouched == 1 ? "1 target" : "\(targetsTouched) targets"
        return "\(identifiers) changed, \(targets), +\(traitsApplied) −\(traitsReverted) traits"
    }
}
