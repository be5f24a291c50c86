/// A YAML scalar as libyaml reports it, typed by the YAML 1.2 core schema.
///
/// The typing is done here rather than by a YAML 1.1 resolver, where `yes`, `on` and
/// `0777`-style octals are not strings and numbers as a spec author expects.
struct YAMLScalar {
    /// The scalar's content, after unquoting and folding.
    var text: String
    /// The explicit tag, resolved by libyaml (`!!int` is `tag:yaml.org,2002:int`), or `nil`.
    var tag: String?
    /// Whether the scalar is plain (neither quoted nor a block scalar).
    var isPlain: Bool

    private static let strTag = "tag:yaml.org,2002:str"
    private static let nullWords: Set<String> = ["", "~", "null", "Null", "NULL"]
    private static let trueWords: Set<String> = ["true", "True", "TRUE"]
    private static let falseWords: Set<String> = ["false", "False", "FALSE"]

    /// The value: quoted and block scalars are strings; a plain scalar is null, a boolean, an
    /// integer or a float when the core schema says so and a string otherwise; an explicit
    /// `!!str`, `!!int`, `!!float`, `!!bool` or `!!null` tag is honoured and checked.
    func value(at location: SourceLocation) throws(SpecError) -> SpecNode.Value {
        switch tag {
        case nil:
            return isPlain ? try Self.coreValue(of: text, at: location) : .string(text)
        case Self.strTag?, "!"?:
            return .string(text)
        case "tag:yaml.org,2002:null"? where Self.nullWords.contains(text):
            return .null
        case "tag:yaml.org,2002:bool"? where Self.trueWords.contains(text) || Self.falseWords.contains(text):
            return .bool(Self.trueWords.contains(text))
        case "tag:yaml.org,2002:int"? where Self.integerDigits(of: text) != nil:
            return try Self.coreValue(of: text, at: location)
        case "tag:yaml.org,2002:float"? where Self.isFloat(text) || Self.isNonFinite(text):
            // `!!float 1` is the float 1.0, though the plain `1` is an integer.
            let value = try Self.coreValue(of: text, at: location)
            if case .int(let integer) = value { return .double(Double(integer)) }
            return value
        case let name?
        where name.hasPrefix("tag:yaml.org,2002:")
            && ["null", "bool", "int", "float"].contains(name.dropFirst(18)):
            throw SpecError(.invalidValue, at: location, "'\(text)' is not a valid \(YAMLTag.displayName(of: name))")
        case let name?:
            throw YAMLTag.error(name, on: "a scalar", at: location)
        }
    }

    /// The scalar as a key: its text, as written (after unquoting). Keys are names, so `8`,
    /// `true` and `null` name the keys "8", "true" and "null"; a tag on a key is still checked.
    func keyString(at location: SourceLocation) throws(SpecError) -> String {
        switch tag {
        case nil:
            // `? ` with nothing after it: a key nobody meant to leave empty.
            if isPlain, text.isEmpty {
                throw SpecError(.typeMismatch, at: location, "expected a string key, found an empty key")
            }
        case Self.strTag?, "!"?: break
        default: _ = try value(at: location)
        }
        return text
    }

    /// The core schema's typing of a plain scalar's text.
    static func coreValue(of text: String, at location: SourceLocation) throws(SpecError) -> SpecNode.Value {
        if nullWords.contains(text) { return .null }
        if trueWords.contains(text) { return .bool(true) }
        if falseWords.contains(text) { return .bool(false) }
        if let (digits, radix) = integerDigits(of: text) {
            guard let integer = Int(digits, radix: radix) else {
                throw SpecError(.invalidValue, at: location, "number \(text) is out of range")
            }
            return .int(integer)
        }
        if isNonFinite(text) {
            throw SpecError(.invalidValue, at: location, "non-finite number '\(text)' is not allowed")
        }
        if isFloat(text) {
            // Double(_:) reads every text the float pattern admits; it fails or overflows only
            // for magnitudes beyond Double's range.
            guard let double = Double(text), double.isFinite else {
                throw SpecError(.invalidValue, at: location, "number \(text) is out of range")
            }
            return .double(double)
        }
        return .string(text)
    }

    /// The digits and radix of a core-schema integer: `[-+]?[0-9]+`, `0o[0-7]+` or
    /// `0x[0-9a-fA-F]+`.
    static func integerDigits(of text: String) -> (Substring, Int)? {
        let utf8 = text.utf8
        if text.hasPrefix("0o"), utf8.count > 2, utf8.dropFirst(2).allSatisfy({ (0x30...0x37).contains($0) }) {
            return (text.dropFirst(2), 8)
        }
        if text.hasPrefix("0x"), utf8.count > 2, utf8.dropFirst(2).allSatisfy({ $0.isHexDigit }) {
            return (text.dropFirst(2), 16)
        }
        let unsigned = utf8.first == UInt8(ascii: "-") || utf8.first == UInt8(ascii: "+") ? utf8.dropFirst() : utf8[...]
        guard !unsigned.isEmpty, unsigned.allSatisfy({ $0.isDigit }) else { return nil }
        return (Substring(text), 10)
    }

    /// Whether `text` matches `[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?`.
    static func isFloat(_ text: String) -> Bool {
        var bytes = text.utf8[...]
        if let first = bytes.first, first == UInt8(ascii: "-") || first == UInt8(ascii: "+") {
            bytes = bytes.dropFirst()
        }
        let integerPart = bytes.prefix { $0.isDigit }
        bytes = bytes.dropFirst(integerPart.count)
        var fractionPart = bytes.prefix(0)
        if bytes.first == UInt8(ascii: ".") {
            bytes = bytes.dropFirst()
            fractionPart = bytes.prefix { $0.isDigit }
            bytes = bytes.dropFirst(fractionPart.count)
        }
        guard !integerPart.isEmpty || !fractionPart.isEmpty else { return false }
        if let first = bytes.first, first | 0x20 == UInt8(ascii: "e") {
            bytes = bytes.dropFirst()
            if let sign = bytes.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") {
                bytes = bytes.dropFirst()
            }
            let exponent = bytes.prefix { $0.isDigit }
            guard !exponent.isEmpty else { return false }
            bytes = bytes.dropFirst(exponent.count)
        }
        return bytes.isEmpty
    }

    /// Whether `text` is the core schema's infinity or not-a-number.
    static func isNonFinite(_ text: String) -> Bool {
        let unsigned = text.hasPrefix("-") || text.hasPrefix("+") ? text.dropFirst() : Substring(text)
        return [".inf", ".Inf", ".INF"].contains(unsigned) || [".nan", ".NaN", ".NAN"].contains(text)
    }
}

extension UInt8 {
    fileprivate var isDigit: Bool { self &- UInt8(ascii: "0") < 10 }
    fileprivate var isHexDigit: Bool { isDigit || (self | 0x20) &- UInt8(ascii: "a") < 6 }
}
