/// A value in a CSS declaration, kept as what it is until the stylesheet is written, so that
/// every piece of text from a spec is escaped by one rule (``CSSText``) and nothing else.
public enum CSSValue: Hashable, Sendable {
    /// A colour, written `#RRGGBB` or `#RRGGBBAA`.
    case color(Color)
    /// A length in CSS pixels (a Livery point is a CSS pixel): `8px`.
    case pixels(Double)
    /// A plain number: `0.8`, `600`.
    case number(Double)
    /// A string: `"Inter"`, escaped whatever it holds.
    case string(String)
    /// A keyword such as `solid` or `none`, written as an escaped identifier.
    case keyword(String)
    /// Values separated by spaces: `0px 2px 4px #0000004D`.
    case list([CSSValue])
    /// Values separated by commas, first choice first: `"Inter", system-ui`.
    case alternatives([CSSValue])

    /// The value as CSS text.
    public var cssText: String {
        switch self {
        case .color(let color): color.description
        case .pixels(let length): CSSText.number(length) + "px"
        case .number(let number): CSSText.number(number)
        case .string(let text): CSSText.string(text)
        case .keyword(let name): CSSText.identifier(name)
        case .list(let values): values.map(\.cssText).joined(separator: " ")
        case .alternatives(let values): values.map(\.cssText).joined(separator: ", ")
        }
    }
}

extension CSSValue {
    /// A spec value as it is written: a number, a string, `true`/`false`, or a list of those;
    /// nil for null and mappings.
    public init?(specValue node: SpecNode) {
        switch node.value {
        case .int(let int): self = .number(Double(int))
        case .double(let double): self = .number(double)
        case .string(let string): self = .string(string)
        case .bool(let bool): self = .keyword(bool ? "true" : "false")
        case .sequence(let items): self = .list(items.compactMap(CSSValue.init(specValue:)))
        case .null, .mapping: return nil
        }
    }
}
