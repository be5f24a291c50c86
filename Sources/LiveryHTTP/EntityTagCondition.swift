/// The value of an `If-Match` or `If-None-Match` header: `*` or a list of entity tags.
///
/// Several header lines are one comma-separated list (RFC 9110 §5.3). Tags that do not parse
/// are ignored, as RFC 9110 lets a recipient do with a list member it does not understand.
@_spi(LiveryInternal) public enum EntityTagCondition: Hashable, Sendable {
    /// `*`: any current representation.
    case any
    /// The listed tags; `weak` records a `W/` prefix.
    case tags([Member])

    /// One tag of a list.
    public struct Member: Hashable, Sendable {
        /// The tag without quotes.
        public var opaque: String
        /// Whether the tag was marked weak (`W/"…"`).
        public var weak: Bool

        /// Creates a member.
        public init(opaque: String, weak: Bool) {
            self.opaque = opaque
            self.weak = weak
        }
    }

    /// Parses the header's lines; `nil` when there is no such header.
    public init?(headerValues: [String]) {
        guard !headerValues.isEmpty else { return nil }
        var members: [Member] = []
        for line in headerValues {
            for part in line.split(separator: ",") {
                let item = String(part).trimmingSpaces
                if item == "*" {
                    self = .any
                    return
                }
                var rest = Substring(item)
                let weak = rest.hasPrefix("W/")
                if weak { rest = rest.dropFirst(2) }
                guard rest.count >= 2, rest.first == "\"", rest.last == "\"" else { continue }
                members.append(Member(opaque: String(rest.dropFirst().dropLast()), weak: weak))
            }
        }
        self = .tags(members)
    }

    /// `If-None-Match` semantics: weak comparison, so `W/"x"` matches `"x"`.
    public func matchesWeakly(_ tag: EntityTag?) -> Bool {
        guard let tag else { return false }
        switch self {
        case .any: return true
        case .tags(let members): return members.contains { $0.opaque == tag.opaque }
        }
    }

    /// `If-Match` semantics: strong comparison, so a weak tag never matches, and `*` matches only
    /// an existing representation (`tag != nil`).
    public func matchesStrongly(_ tag: EntityTag?) -> Bool {
        guard let tag else { return false }
        switch self {
        case .any: return true
        case .tags(let members): return members.contains { !$0.weak && $0.opaque == tag.opaque }
        }
    }
}
