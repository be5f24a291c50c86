/// The `$type` of a design token, as the Design Tokens Format Module 2025.10 names them.
///
/// The names are case-sensitive, and a name that is not here is an error: the format says tools
/// must not guess a token's type.
public enum TokenType: String, Sendable, CaseIterable {
    /// A colour (Color Module 2025.10): a Livery ``Color``.
    case color
    /// `{value, unit}` with `px` or `rem`: points.
    case dimension
    /// A font name or a list of them, most preferred first.
    case fontFamily
    /// A number 1…1000 or one of the format's weight names.
    case fontWeight
    /// `{value, unit}` with `ms` or `s`: seconds.
    case duration
    /// Four numbers `[x1, y1, x2, y2]`.
    case cubicBezier
    /// A JSON number.
    case number
    /// A line style name or `{dashArray, lineCap}`.
    case strokeStyle
    /// `{color, width, style}`: a `Border` trait.
    case border
    /// `{duration, delay, timingFunction}`.
    case transition
    /// `{color, offsetX, offsetY, blur, spread, inset}` or a list of them: a `DropShadow` trait.
    case shadow
    /// A list of `{color, position}` stops.
    case gradient
    /// `{fontFamily, fontSize, fontWeight, letterSpacing, lineHeight}`: a `Font` trait.
    case typography

    /// The names, for error messages.
    static let expected = allCases.map { "'\($0.rawValue)'" }.joined(separator: ", ")
}
