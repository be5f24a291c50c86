extension SpecNode {
    /// The node as JSON indented by two spaces a level, keys in document order, ending in a
    /// newline: what a person reads or a tool saves (a design tokens file). Numbers and strings
    /// are written as in ``canonicalJSON``.
    public var prettyJSON: String {
        var output = ""
        writePrettyJSON(to: &output, indent: "")
        return output + "\n"
    }

    private func writePrettyJSON(to output: inout String, indent: String) {
        let inner = indent + "  "
        switch value {
        case .sequence(let items) where !items.isEmpty:
            output += "[\n"
            for (index, item) in items.enumerated() {
                output += inner
                item.writePrettyJSON(to: &output, indent: inner)
                output += index < items.count - 1 ? ",\n" : "\n"
            }
            output += indent + "]"
        case .mapping(let members) where !members.isEmpty:
            output += "{\n"
            for (index, member) in members.enumerated() {
                output += inner
                Self.writeJSONString(member.key, to: &output)
                output += ": "
                member.value.writePrettyJSON(to: &output, indent: inner)
                output += index < members.count - 1 ? ",\n" : "\n"
            }
            output += indent + "}"
        default:
            writeJSON(to: &output)
        }
    }
}
