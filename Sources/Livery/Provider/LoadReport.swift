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
    /// Identifiers kept on the traits they had because the spec gives them a trait type the
    /// provider does not know, in document order; only for a spec read with
    /// ``UnknownTraitPolicy/skipIdentifier``.
    public var skippedIdentifiers: [SkippedIdentifier]

    /// Creates a report.
    public init(
        changedIdentifiers: [String] = [], targetsTouched: Int = 0, traitsApplied: Int = 0,
        traitsReverted: Int = 0, theme: String? = nil, skippedIdentifiers: [SkippedIdentifier] = []
    ) {
        self.changedIdentifiers = changedIdentifiers
        self.targetsTouched = targetsTouched
        self.traitsApplied = traitsApplied
        self.traitsReverted = traitsReverted
        self.theme = theme
        self.skippedIdentifiers = skippedIdentifiers
    }

    /// One line: `3 identifiers changed, 12 targets, +40 −38 traits`, and `, 1 identifier
    /// skipped` when some were.
    public var description: String {
        let identifiers = changedIdentifiers.count == 1 ? "1 identifier" : "\(changedIdentifiers.count) identifiers"
        let targets = targetsTouched == 1 ? "1 target" : "\(targetsTouched) targets"
        let line = "\(identifiers) changed, \(targets), +\(traitsApplied) −\(traitsReverted) traits"
        switch skippedIdentifiers.count {
        case 0: return line
        case 1: return line + ", 1 identifier skipped"
        case let count: return line + ", \(count) identifiers skipped"
        }
    }
}
