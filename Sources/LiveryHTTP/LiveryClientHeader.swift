/// The `Livery-Client` request header: who the client is and which version of the spec it has
/// applied, so the daemon can tell how a fleet converges.
///
/// Its value is an RFC 8941 structured-field Dictionary:
///
/// ```
/// Livery-Client: name="shop-web", instance="host-3:4121", version="2.4.1",
///                applied="\"9f3c0a1b2c3d4e5f\"", skipped=("promo.banner" "card.badge")
/// ```
///
/// | key | value | |
/// |---|---|---|
/// | `name` | string | the program; required |
/// | `instance` | string | which running copy; required |
/// | `version` | string | the program's own version; left out when unknown |
/// | `applied` | string | the ETag of the spec applied (not merely fetched), as the `ETag` header had it; left out before the first |
/// | `refused` | string | the ETag of the last version the client fetched but did not load (version skew, a trait it lacks); left out when none |
/// | `problem` | string | the ETag of a version the program reported misbehaving (`RemoteSpecSource.reportProblem(_:)`); left out when none |
/// | `note` | string | the program's words on that problem; left out when none |
/// | `skipped` | inner list of strings | identifiers left on older traits; left out when none |
/// | `more` | integer | identifiers skipped beyond those listed; left out when none |
///
/// Strings of printable ASCII are sf-strings; others are RFC 9651 Display Strings
/// (`%"caf%c3%a9"`). Every field is at most ``ClientIdentity/maxFieldBytes`` bytes of UTF-8 and
/// at most ``maxListedSkipped`` identifiers are listed, so the value stays under ``maxBytes``.
/// Parsing ignores members and parameters it does not know, so the header can grow.
public struct LiveryClientHeader: Hashable, Sendable {
    /// The header's name.
    public static let fieldName = "Livery-Client"
    /// The longest value accepted.
    public static let maxBytes = 8192
    /// The most skipped identifiers listed; the others are counted in ``moreSkipped``.
    public static let maxListedSkipped = 16

    /// Who the client is.
    public var identity: ClientIdentity
    /// The ETag of the spec the client has applied, or `nil` before its first.
    public var applied: String?
    /// The ETag of the last version the client refused to load, if any.
    public var refused: String?
    /// The ETag of a version the program reported as misbehaving, if any.
    public var problem: String?
    /// What the program said of that problem (at most ``ClientIdentity/maxFieldBytes`` bytes).
    public var note: String?
    /// Identifiers the client left on older traits (at most ``maxListedSkipped``).
    public var skipped: [String]
    /// How many more identifiers were skipped than ``skipped`` lists.
    public var moreSkipped: Int

    /// A header for `identity`. Skipped identifiers past ``maxListedSkipped``, or longer than
    /// ``ClientIdentity/maxFieldBytes``, are counted in ``moreSkipped`` rather than listed.
    /// `applied` is sent as given: an ETag longer than ``ClientIdentity/maxFieldBytes`` (those of
    /// `livery serve` have 18 bytes) makes the header one the daemon refuses, never a wrong one.
    /// `note` is cut to ``ClientIdentity/maxFieldBytes`` at a character boundary.
    public init(
        identity: ClientIdentity, applied: String? = nil, skipped: [String] = [], refused: String? = nil,
        problem: String? = nil, note: String? = nil
    ) {
        let listable = skipped.filter { $0.utf8.count <= ClientIdentity.maxFieldBytes }
        self.identity = identity
        self.applied = applied
        self.refused = refused
        self.problem = problem
        self.note = note.map { ClientIdentity.fit($0, orElse: "") }.flatMap { $0.isEmpty ? nil : $0 }
        self.skipped = Array(listable.prefix(Self.maxListedSkipped))
        self.moreSkipped = skipped.count - self.skipped.count
    }

    /// The header's value.
    public var fieldValue: String {
        var members = ["name=\(Self.serialize(identity.name))", "instance=\(Self.serialize(identity.instance))"]
        if !identity.appVersion.isEmpty { members.append("version=\(Self.serialize(identity.appVersion))") }
        if let applied { members.append("applied=\(Self.serialize(applied))") }
        if let refused { members.append("refused=\(Self.serialize(refused))") }
        if let problem { members.append("problem=\(Self.serialize(problem))") }
        if let note { members.append("note=\(Self.serialize(note))") }
        if !skipped.isEmpty { members.append("skipped=(\(skipped.map(Self.serialize).joined(separator: " ")))") }
        if moreSkipped > 0 { members.append("more=\(moreSkipped)") }
        return members.joined(separator: ", ")
    }

    /// Parses a header's value.
    ///
    /// - Throws: A ``ClientHeaderError`` with the column: a value longer than ``maxBytes``, not a
    ///   structured Dictionary, without `name` or `instance`, a known key with a value of the
    ///   wrong type, a field longer than ``ClientIdentity/maxFieldBytes`` or more than
    ///   ``maxListedSkipped`` identifiers.
    public init(fieldValue: String) throws(ClientHeaderError) {
        let count = fieldValue.utf8.count
        guard count <= Self.maxBytes else {
            throw ClientHeaderError(
                column: Self.maxBytes + 1, "the value is \(count) bytes, longer than \(Self.maxBytes)")
        }
        let members = try StructuredDictionary(parsing: fieldValue).members
        func string(_ key: String, required: Bool) throws(ClientHeaderError) -> String? {
            guard let (item, column) = members[key] else {
                if required { throw ClientHeaderError(column: 1, "'\(key)' is missing") }
                return nil
            }
            guard case .string(let value) = item else {
                throw ClientHeaderError(column: column, "'\(key)' must be a string, not \(item.kind)")
            }
            try Self.checkLength(value, key: key, column: column)
            return value
        }
        identity = try ClientIdentity(
            name: string("name", required: true) ?? "", instance: string("instance", required: true) ?? "",
            appVersion: string("version", required: false) ?? "")
        applied = try string("applied", required: false)
        refused = try string("refused", required: false)
        problem = try string("problem", required: false)
        note = try string("note", required: false)
        skipped = try Self.skipped(members["skipped"])
        moreSkipped = 0
        if let (item, column) = members["more"] {
            guard case .integer(let more) = item, more >= 0 else {
                throw ClientHeaderError(column: column, "'more' must be an integer of 0 or more")
            }
            moreSkipped = more
        }
    }

    // MARK: Helpers

    private static func skipped(
        _ member: (item: StructuredDictionary.Item, column: Int)?
    ) throws(ClientHeaderError)
        -> [String]
    {
        guard let (item, column) = member else { return [] }
        guard case .innerList(let items) = item else {
            throw ClientHeaderError(column: column, "'skipped' must be an inner list of strings, not \(item.kind)")
        }
        guard items.count <= maxListedSkipped else {
            throw ClientHeaderError(
                column: column, "'skipped' lists \(items.count) identifiers, more than \(maxListedSkipped)")
        }
        var identifiers: [String] = []
        for item in items {
            guard case .string(let identifier) = item else {
                throw ClientHeaderError(column: column, "'skipped' must hold strings, not \(item.kind)")
            }
            try checkLength(identifier, key: "skipped", column: column)
            identifiers.append(identifier)
        }
        return identifiers
    }

    private static func checkLength(_ value: String, key: String, column: Int) throws(ClientHeaderError) {
        let count = value.utf8.count
        guard count <= ClientIdentity.maxFieldBytes else {
            throw ClientHeaderError(
                column: column, "'\(key)' is \(count) bytes, longer than \(ClientIdentity.maxFieldBytes)")
        }
    }

    /// An sf-string when `value` is printable ASCII, else a Display String.
    static func serialize(_ value: String) -> String {
        let bytes = Array(value.utf8)
        if bytes.allSatisfy({ (0x20...0x7E).contains($0) }) {
            var text = "\""
            for byte in bytes {
                if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { text.append("\\") }
                text.append(Character(Unicode.Scalar(byte)))
            }
            return text + "\""
        }
        var text = "%\""
        for byte in bytes {
            if (0x20...0x7E).contains(byte), byte != UInt8(ascii: "%"), byte != UInt8(ascii: "\"") {
                text.append(Character(Unicode.Scalar(byte)))
            } else {
                let digits = String(byte, radix: 16)
                text += "%" + (digits.count == 1 ? "0" + digits : digits)
            }
        }
        return text + "\""
    }
}
