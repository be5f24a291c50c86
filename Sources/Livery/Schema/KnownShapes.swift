/// Hand-written shapes for the value types that have several spellings in a spec, which a
/// recording decoder cannot see (it follows one path through `init(from:)`).
enum KnownShapes {
    static let colour =
        ###"{"type": "string", "pattern": "^(#[0-9A-Fa-f]{3,4}|#[0-9A-Fa-f]{6}|#[0-9A-Fa-f]{8}|[Rr][Gg][Bb][Aa]?\\(.*\\))$", "description": "#RGB, #RGBA, #RRGGBB, #RRGGBBAA, rgb(r, g, b) or rgba(r, g, b, a)"}"###

    static func shape<T>(of type: T.Type) -> Shape? {
        switch type {
        case is Color.Type:
            return .literal(colour, kind: "color")
        case is Size.Type:
            return .literal(pair("width", "height"), kind: "size")
        case is Point.Type:
            return .literal(pair("x", "y"), kind: "point")
        case is Insets.Type:
            return .literal(
                ##"{"oneOf": [{"type": "number"}, {"type": "array", "items": {"type": "number"}, "minItems": 4, "maxItems": 4}, {"type": "object", "properties": {"top": {"type": "number"}, "left": {"type": "number"}, "bottom": {"type": "number"}, "right": {"type": "number"}}, "required": ["top", "left", "bottom", "right"], "additionalProperties": false}]}"##,
                kind: "insets")
        case is FontWeight.Type:
            let names = FontWeight.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
            return .literal(
                ##"{"oneOf": [{"enum": [\##(names)]}, {"type": "integer", "minimum": 100, "maximum": 900, "multipleOf": 100}]}"##,
                kind: "weight")
        case is RawNode.Type:
            return .literal(##"{"type": "object"}"##, kind: "mapping")
        default:
            return nil
        }
    }

    /// Values for the known types, so decoding can go on past them.
    static func placeholder<T>(of type: T.Type) -> T? {
        let value: Any? =
            switch type {
            case is Color.Type: Color.black
            case is Size.Type: Size.zero
            case is Point.Type: Point.zero
            case is Insets.Type: Insets.zero
            case is FontWeight.Type: FontWeight.regular
            case is RawNode.Type: RawNode(node: SpecNode(.mapping([]), at: .start(of: "<schema>")))
            default: nil
            }
        return value as? T
    }

    private static func pair(_ first: String, _ second: String) -> String {
        ##"{"oneOf": [{"type": "array", "items": {"type": "number"}, "minItems": 2, "maxItems": 2}, {"type": "object", "properties": {"\##(first)": {"type": "number"}, "\##(second)": {"type": "number"}}, "required": ["\##(first)", "\##(second)"], "additionalProperties": false}]}"##
    }
}
