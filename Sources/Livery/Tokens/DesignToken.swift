/// One token of a design tokens document, as read: its path, its type and its value, with the
/// properties the format defines beside them.
///
/// The spec's variable at ``path`` holds the value converted to Livery's terms (see
/// ``TokenValue``); the token keeps what it was written as, so an export writes it back.
public struct DesignToken: Sendable {
    /// The group names and the token's name: `["color", "brand", "primary"]`.
    public var path: [String]
    /// The declared or inherited type; nil for an alias that takes its target's type.
    public var type: TokenType?
    /// The `$value` as written, references kept (`"{color.base}"`, `$ref` objects expanded).
    public var value: SpecNode
    /// `$description`.
    public var description: String?
    /// `$deprecated`: nil when not deprecated, "" when deprecated without a reason.
    public var deprecation: String?
    /// `$extensions`, kept whole.
    public var extensions: SpecNode?
    /// Where the token's name is.
    public var keyLocation: SourceLocation

    /// The dotted name a spec references it by: `color.brand.primary`.
    public var name: String { path.joined(separator: ".") }

    /// Where the value is: the place every diagnostic about the token names.
    public var location: SourceLocation { value.location }
}
