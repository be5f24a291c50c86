/// An identifier a load left on the traits it had, because the spec gives it a trait type the
/// provider's registry does not know (see ``UnknownTraitPolicy/skipIdentifier``).
public struct SkippedIdentifier: Hashable, Sendable, CustomStringConvertible {
    /// The identifier kept on its last good traits.
    public var identifier: String
    /// The first unknown trait type it uses, directly or through `Inherit`.
    public var traitType: String
    /// Where that trait type is written.
    public var location: SourceLocation

    /// Creates a record of a skipped identifier.
    public init(identifier: String, traitType: String, location: SourceLocation) {
        self.identifier = identifier
        self.traitType = traitType
        self.location = location
    }

    /// Reads like a compiler warning:
    /// `card.yaml:12:7: warning: 'card.badge' kept on its last good traits: unknown trait type 'Confetti'`.
    public var description: String {
        "\(location): warning: '\(identifier)' kept on its last good traits: unknown trait type '\(traitType)'"
    }
}
