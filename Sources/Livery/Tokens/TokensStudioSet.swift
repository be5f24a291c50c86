import Foundation

/// One token set as Tokens Studio for Figma pushes it (its "W3C DTCG" token format), brought to
/// the Format Module 2025.10 before it is stored as `tokens/<set>.tokens.json`.
///
/// Tokens Studio writes what earlier drafts of the format allowed: colours as hex strings
/// (`"#ff0000"`), dimensions as strings (`"16px"`), and its own names for dimension types
/// (`spacing`, `sizing`, `borderRadius`, `borderWidth`, `fontSizes`) and for `fontFamilies` and
/// `fontWeights`. Those are rewritten exactly (a hex colour is the `srgb` colour it names; a
/// dimension string its number and unit). Anything else is stored as pushed, and the push is
/// validated like any other: a value Livery cannot read is a 422 that names its place in the file.
enum TokensStudioSet {
    /// Tokens Studio's type names and the format's.
    static let typeNames: [String: String] = [
        "spacing": "dimension", "sizing": "dimension", "borderRadius": "dimension", "borderWidth": "dimension",
        "fontSizes": "dimension", "fontFamilies": "fontFamily", "fontWeights": "fontWeight",
    ]

    /// The path of the first token of `node` in Tokens Studio's legacy format (`{"value": …,
    /// "type": …}`, no `$`), if it has one. In the format every member of a group is an object, so
    /// a member `value` that is not one, or a `type` that is a string, makes a legacy token.
    static func legacyToken(in node: SpecNode, at path: [String] = []) -> [String]? {
        guard let members = node.members, node["$value"] == nil else { return nil }
        if let value = node["value"], value.members == nil { return path }
        if node["type"]?.string != nil { return path }
        for member in members where !member.key.hasPrefix("$") {
            if let found = legacyToken(in: member.value, at: path + [member.key]) { return found }
        }
        return nil
    }

    /// `set` with Tokens Studio's spellings rewritten.
    static func normalised(_ set: SpecNode) -> SpecNode {
        normalised(set, type: nil)
    }

    private static func normalised(_ node: SpecNode, type inherited: String?) -> SpecNode {
        guard var members = node.members else { return node }
        var type = inherited
        if let index = members.firstIndex(where: { $0.key == "$type" }), let name = members[index].value.string {
            let renamed = typeNames[name] ?? name
            members[index].value = .text(renamed, at: members[index].value.location)
            type = renamed
        }
        if let index = members.firstIndex(where: { $0.key == "$value" }) {
            members[index].value = value(members[index].value, type: type)
            return SpecNode(.mapping(members), at: node.location)
        }
        for index in members.indices where !members[index].key.hasPrefix("$") {
            members[index].value = normalised(members[index].value, type: type)
        }
        return SpecNode(.mapping(members), at: node.location)
    }

    private static func value(_ node: SpecNode, type: String?) -> SpecNode {
        guard let text = node.string, !text.hasPrefix("{") else { return node }
        switch type {
        case "color":
            guard text.hasPrefix("#"), [4, 7, 9].contains(text.count), let color = Color(hex: text) else { return node }
            return color.designTokenValue(at: node.location)
        case "dimension":
            guard let match = text.wholeMatch(of: /(-?[0-9]+(?:\.[0-9]+)?)(px|rem)/),
                let number = Double(match.output.1)
            else { return node }
            let value: SpecNode =
                number == number.rounded() && abs(number) < 1e15
                ? SpecNode(.int(Int(number)), at: node.location) : SpecNode(.double(number), at: node.location)
            return .object(
                [("value", value), ("unit", .text(String(match.output.2), at: node.location))], at: node.location)
        default:
            return node
        }
    }
}
