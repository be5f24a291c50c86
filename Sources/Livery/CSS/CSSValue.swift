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
        var text = ""
        write(into: &text)
        return text
    }

    /// Appends ``cssText`` to `output`.
    func write(into output: inout String) {
        switch self {
        case .color(let color): output += color.description
        case .pixels(let length):
            CSSText.write(number: length, into: &output)
            output += "px"
        case .number(let number): CSSText.write(number: number, into: &output)
        case .string(let text): CSSText.write(string: text, into: &output)
        case .keyword(let name): CSSText.write(identifier: name, into: &output)
        case .list(let values): Self.write(values, separator: " ", into: &output)
        case .alternatives(let values): Self.write(values, separator: ", ", into: &output)
        }
    }

    private static func write(_ values: [CSSValue], separator: String, into output: inout String) {
        for (index, value) in values.enumerated() {
            if index > 0 { output += separator }
            value.write(into: &output)
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
