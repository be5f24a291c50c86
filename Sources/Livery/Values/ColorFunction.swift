/// The colour functions of the spec language, from the Ångström Style System.
///
/// - `~alpha(COLOUR, ALPHA)` is COLOUR with its alpha replaced by ALPHA (0...1 or a percentage).
/// - `~mix(COLOUR1, COLOUR2, PART)` is `COLOUR1 * PART + COLOUR2 * (1 - PART)`, channel by
///   channel including alpha, rounded to the nearest integer.
///
/// The original spellings `~color.alpha(…)` and `~color.mix(…)` are accepted too. A colour
/// argument is a colour literal in any syntax ``Color/init(parsing:)`` accepts (`rgba(…)` with
/// its own commas included), a nested call, or a reference `@a.b.c`; a number argument is a
/// number, a percentage or a reference. References are resolved by the caller, and what they
/// resolve to is evaluated in turn.
///
/// ```swift
/// let muted = try ColorFunction.evaluate("~alpha(@colors.text, 0.3)") { path in
///     try variables.scalar(at: path)   // "colors.text" → "#1C1C1E"
/// }
/// ```
public enum ColorFunction {
    /// Whether `text` is a function call, that is, starts with `~` (after any whitespace).
    public static func isCall(_ text: String) -> Bool {
        ValueText.trimmed(text[...]).first == "~"
    }

    /// The colour `text` denotes: a function call, a reference, or a colour literal.
    ///
    /// - Parameters:
    ///   - text: The expression, such as `~mix(@colors.accent, #FFF, 0.5)`.
    ///   - resolve: Returns the scalar text a reference names, given its path without the `@`
    ///     (`"colors.accent"`). An error it throws propagates unchanged.
    /// - Throws: What `resolve` throws, or a ``ValueError`` that says what is wrong: an unknown
    ///   function, a wrong number of arguments, a number out of 0...1, unbalanced parentheses,
    ///   text after the call, an invalid colour, or a cycle of references. When the bad text is
    ///   the value of a reference, the message starts with that reference: `@colors.text: …`.
    public static func evaluate(_ text: String, resolve: (String) throws -> String) throws -> Color {
        do {
            // The evaluator keeps the resolver only while this call runs.
            return try withoutActuallyEscaping(resolve) { resolve in
                var evaluator = ColorFunctionEvaluator(resolve: resolve)
                return try evaluator.color(ValueText.trimmed(text[...]))
            }
        } catch let escaping as ColorFunctionEvaluator.Escaping {
            switch escaping {
            case .resolver(let error): throw error
            case .final(let error): throw error
            }
        }
    }
}
