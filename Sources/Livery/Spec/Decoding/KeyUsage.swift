/// Records which keys of which mappings a decode asked for, so that the rest can be reported.
///
/// A reference type because the decoder and its containers are values that all report here.
final class KeyUsage {
    final class Opened {
        let node: SpecNode
        let members: [SpecNode.Member]
        let path: [any CodingKey]
        var asked: Set<String>

        init(node: SpecNode, members: [SpecNode.Member], path: [any CodingKey], asked: Set<String>) {
            self.node = node
            self.members = members
            self.path = path
            self.asked = asked
        }
    }

    private var opened: [Opened] = []
    private var openedByPath: [String: Opened] = [:]
    private let preread: Set<String>

    init(preread: Set<String>) {
        self.preread = preread
    }

    func open(_ node: SpecNode, members: [SpecNode.Member], path: [any CodingKey]) -> Opened {
        // The same mapping may be opened more than once (a decoder that tries shapes in turn);
        // the keys asked of any opening count.
        let pathKey = path.map(\.stringValue).joined(separator: "\u{1}")
        if let existing = openedByPath[pathKey] { return existing }
        let entry = Opened(node: node, members: members, path: path, asked: path.isEmpty ? preread : [])
        opened.append(entry)
        openedByPath[pathKey] = entry
        return entry
    }

    /// An unknown key that is probably a misspelling of `missing`, reported as such.
    func unknownKey(resembling missing: String, owner: String) -> SpecError? {
        for entry in opened {
            for member in entry.members where !entry.asked.contains(member.key) {
                guard Suggestion.closest(to: member.key, in: [missing]) != nil else { continue }
                let place = entry.path.isEmpty ? owner : "'\(entry.path.map(\.stringValue).joined(separator: "."))' of \(owner)"
                return SpecError(.unknownKey, at: member.keyLocation, "unknown key '\(member.key)' in \(place); did you mean '\(missing)'?")
            }
        }
        return nil
    }

    func firstUnknownKey(owner: String) -> SpecError? {
        for entry in opened {
            for member in entry.members where !entry.asked.contains(member.key) {
                let place = entry.path.isEmpty ? owner : "'\(entry.path.map(\.stringValue).joined(separator: "."))' of \(owner)"
                let known = entry.asked.subtracting(entry.path.isEmpty ? preread : []).sorted()
                let hint: String
                if let guess = Suggestion.closest(to: member.key, in: known) {
                    hint = "did you mean '\(guess)'?"
                } else if known.isEmpty {
                    hint = "it takes no keys"
                } else {
                    hint = "expected " + known.map { "'\($0)'" }.joined(separator: ", ")
                }
                return SpecError(.unknownKey, at: member.keyLocation, "unknown key '\(member.key)' in \(place); \(hint)")
            }
        }
        return nil
    }
}
