/// Applies a theme's overrides to the base variables. Overriding something that is not a
/// variable is an error, so a typo in a theme cannot go unnoticed.
enum ThemeOverlay {
    static func apply(
        _ overrides: SpecNode, to variables: SpecNode, theme: String
    ) throws(SpecError) -> SpecNode {
        try overlay(overrides, on: variables, path: [], theme: theme)
    }

    private static func overlay(
        _ overrides: SpecNode, on base: SpecNode, path: [String], theme: String
    ) throws(SpecError) -> SpecNode {
        guard var members = base.members, let changes = overrides.members else { return overrides }
        for change in changes {
            let changePath = path + [change.key]
            guard let index = members.firstIndex(where: { $0.key == change.key }) else {
                let known = members.map { (path + [$0.key]).joined(separator: ".") }
                let dotted = changePath.joined(separator: ".")
                let hint = Suggestion.closest(to: dotted, in: known).map { "; did you mean '\($0)'?" } ?? ""
                throw SpecError(
                    .unknownKey, at: change.keyLocation,
                    "theme '\(theme)' overrides '\(dotted)', which is not a variable\(hint)")
            }
            members[index].value = try overlay(change.value, on: members[index].value, path: changePath, theme: theme)
        }
        return SpecNode(.mapping(members), at: base.location)
    }
}
