/// One `property: value` of a rule.
public struct CSSDeclaration: Hashable, Sendable {
    /// The property: a CSS property name (`background-color`) or a custom property (`--gap`).
    public var property: String
    /// Its value.
    public var value: CSSValue

    /// A declaration of `property`.
    public init(_ property: String, _ value: CSSValue) {
        self.property = property
        self.value = value
    }

    /// A custom property, `--name`, for values CSS has no property of its own for (a
    /// `Constraint`'s constant, a `Set` value): a page reads it with `var(--name)`.
    public static func custom(_ name: String, _ value: CSSValue) -> CSSDeclaration {
        CSSDeclaration("--" + name, value)
    }

    /// The declaration as CSS text, property name escaped too.
    public var cssText: String {
        var text = ""
        write(into: &text)
        return text
    }

    /// Appends ``cssText`` to `output`.
    func write(into output: inout String) {
        CSSText.write(identifier: property, into: &output)
        output += ": "
        value.write(into: &output)
    }
}
