extension SpecNode {
    /// The node as compact JSON, keys in document order. Doubles print in their shortest form
    /// that reads back to the same value, so equal content gives equal text.
    public var canonicalJSON: String {
        var output = ""
        writeJSON(to: &output)
        return output
    }

    /// Appends the node's compact JSON to `output`.
    public func writeJSON(to output: inout String) {
        switch value {
        case .null: output += "null"
        case .bool(let bool): output += bool ? "true" : "false"
        case .int(let int): output += String(int)
        case .double(let double): output += Self.jsonNumber(double)
        case .string(let string): Self.writeJSONString(string, to: &output)
        case .sequence(let items):
            output += "["
            for (index, item) in items.enumerated() {
                if index > 0 { output += "," }
                item.writeJSON(to: &output)
            }
            output += "]"
        case .mapping(let members):
            output += "{"
            for (index, member) in members.enumerated() {
                if index > 0 { output += "," }
                Self.writeJSONString(member.key, to: &output)
                output += ":"
                member.value.writeJSON(to: &output)
            }
            output += "}"
        }
    }

    private static func jsonNumber(_ double: Double) -> String {
        if double == double.rounded(), abs(double) < 1e15 {
            return String(Int(double)) + ".0"
        }
        return String(double)
    }

    static func writeJSONString(_ string: String, to output: inout String) {
        output += "\""
        // Most strings need no escapes: append them whole rather than scalar by scalar.
        if !string.utf8.contains(where: { $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") || $0 < 0x20 }) {
            output += string
            output += "\""
            return
        }
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: output.unicodeScalars.append(scalar)
            }
        }
        output += "\""
    }
}
