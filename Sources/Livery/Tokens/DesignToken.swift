/// One token of a design tokens document, as read: its path, its type and its value, with the
/// properties the format defines beside them.
///
/// The spec's variable at ``path`` holds the value converted to Livery's terms (see
/// `TokenValue`); the token keeps what it was written as, so an export writes it back.
public struct DesignToken: Sendable {
    /// What a token holds. A spec keeps thousands of tokens and passes them through tables
    /// and checks, so a token is one reference to these, shared by its copies; changing a
    /// property makes the copy its own.
    private struct Fields {
        var name: String
        var type: TokenType?
        var value: SpecNode
        var description: String?
        var deprecation: String?
        var extensions: SpecNode?
        var keyLocation: SourceLocation
        /// The references `value` holds: kept, so that the checks of a document's aliases
        /// (``TokenChecks``) need not walk every token's value again.
        var references: ValueReferences
    }

    private final class Storage: Sendable {
        let fields: Fields

        init(_ fields: Fields) { self.fields = fields }
    }

    private var storage: Storage

    /// A token named `name`, its path dotted (names hold no dots). `references` are those
    /// `value` holds: the reader has walked the value for them.
    init(
        name: String, type: TokenType?, value: SpecNode, references: ValueReferences, description: String?,
        deprecation: String?, extensions: SpecNode?, keyLocation: SourceLocation
    ) {
        storage = Storage(
            Fields(
                name: name, type: type, value: value, description: description, deprecation: deprecation,
                extensions: extensions, keyLocation: keyLocation, references: references))
    }

    /// The group names and the token's name: `["color", "brand", "primary"]`.
    public var path: [String] {
        // Kept as the dotted name only, one string rather than an array a token.
        get { storage.fields.name.split(separator: ".", omittingEmptySubsequences: false).map(String.init) }
        set { change { $0.name = newValue.joined(separator: ".") } }
    }
    /// The declared or inherited type; nil for an alias that takes its target's type.
    public var type: TokenType? {
        get { storage.fields.type }
        set { change { $0.type = newValue } }
    }
    /// The `$value` as written, references kept (`"{color.base}"`, `$ref` objects expanded).
    public var value: SpecNode {
        get { storage.fields.value }
        set {
            change {
                $0.value = newValue
                $0.references = ValueReferences(of: newValue)
            }
        }
    }
    /// `$description`.
    public var description: String? {
        get { storage.fields.description }
        set { change { $0.description = newValue } }
    }
    /// `$deprecated`: nil when not deprecated, "" when deprecated without a reason.
    public var deprecation: String? {
        get { storage.fields.deprecation }
        set { change { $0.deprecation = newValue } }
    }
    /// `$extensions`, kept whole.
    public var extensions: SpecNode? {
        get { storage.fields.extensions }
        set { change { $0.extensions = newValue } }
    }
    /// Where the token's name is.
    public var keyLocation: SourceLocation {
        get { storage.fields.keyLocation }
        set { change { $0.keyLocation = newValue } }
    }

    /// The dotted name a spec references it by: `color.brand.primary`.
    public var name: String { storage.fields.name }

    /// Whether the value holds a reference `{…}` anywhere.
    var holdsReference: Bool { storage.fields.references.contains(.alias) }

    /// Whether the value holds no string that is a reference `{…}` or starts as a variable's
    /// reference or function does (`@`, `~`): a chain of aliases that reaches it ends there.
    var isLiteral: Bool { storage.fields.references.isDisjoint(with: [.alias, .variable]) }

    /// Where the value is: the place every diagnostic about the token names.
    public var location: SourceLocation { storage.fields.value.location }

    private mutating func change(_ edit: (inout Fields) -> Void) {
        var fields = storage.fields
        edit(&fields)
        storage = Storage(fields)
    }
}
