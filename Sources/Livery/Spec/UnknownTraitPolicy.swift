/// What reading a spec does with an entry whose trait type the registry does not know.
///
/// A program built before a trait type existed meets it in a newer spec. Like a protobuf reader
/// that keeps fields it does not know and reads the rest, ``skipIdentifier`` lets such a program
/// apply everything it understands; unlike protobuf, nothing is dropped silently: each identifier
/// left alone is a ``SkippedIdentifier`` in the ``LoadReport``.
///
/// Only unknown trait types are skipped. Every other error (a bad value for a known trait, a
/// missing variable, an `Inherit` of an unknown identifier, a cycle, …) rejects the whole spec
/// under both policies.
public enum UnknownTraitPolicy: Sendable, Hashable {
    /// The whole spec is rejected: the first unknown trait type is thrown as a ``SpecError``
    /// (code ``SpecError/Code/unknownTrait``). The default.
    case rejectSpec
    /// Each identifier that uses an unknown trait type, directly or through `Inherit`, is
    /// skipped: a provider keeps it on the traits it has now, applies every other identifier,
    /// and reports the skipped ones in ``LoadReport/skippedIdentifiers``.
    case skipIdentifier

    /// The errors that reject a spec under this policy, in the order found.
    func blocking(_ errors: [SpecError]) -> [SpecError] {
        switch self {
        case .rejectSpec: errors
        case .skipIdentifier: errors.filter { $0.code != .unknownTrait }
        }
    }
}
