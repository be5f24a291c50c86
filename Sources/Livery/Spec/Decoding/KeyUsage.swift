/// Records which keys of which mappings a decode asked for, so that the rest can be reported.
///
/// A reference type because the decoder and its containers are values that all report here.
///
/// Arrays searched in order rather than sets and dictionaries: a trait opens one to three
/// mappings of a few keys each, and every spec entry is decoded, so hashing would cost more.
final class KeyUsage {
    final class Opened {
        let node: SpecNode
        let members: [SpecNode.Member]
        let path: [any CodingKey]
        let pathNames: [String]
        var asked: [String]

        init(node: SpecNode, members: [SpecNode.Member], path: [any CodingKey], pathNames: [String], asked: [String]) {
            self.node = node
            self.members = members
            self.path = path
            self.pathNames = pathNames
            self.asked = asked
        }

        func ask(_ key: String) {
            if !asked.contains(key) { asked.append(key) }
        }
    }

    private var opened: [Opened] = []
    private let preread: [String]

    init(preread: [String]) {
        self.preread = preread
    }

    func open(_ node: SpecNode, members: [SpecNode.Member], path: [any CodingKey]) -> Opened {
        // The same mapping may be opened more than once (a decoder that tries shapes in turn);
        // the keys asked of any opening count.
        let pathNames = path.map(\.stringValue)
        if let existing = opened.first(where: { $0.pathNames == pathNames }) { return existing }
        let entry = Opened(
            node: node, members: members, path: path, pathNames: pathNames, asked: path.isEmpty ? preread : [])
        opened.append(entry)
        return entry
    }

    /// An unknown key that is probably a misspelling of `missing`, reported as such.
    func unknownKey(resembling missing: String, owner: String) -> SpecError? {
        for entry in opened {
            for member in entry.members where !entry.asked.contains(member.key) {
                guard Suggestion.closest(to: member.key, in: [missing]) != nil else { continue }
                let place =
                    entry.path.isEmpty ? owner : "'\(entry.path.map(\.stringValue).joined(separator: "."))' of \(owner)"
                return SpecError(
                    .unknownKey, at: member.keyLocation,
                    "unknown key '\(member.key)' in \(place); did you mean '\(missing)'?")
            }
        }
        return nil
    }

    func firstUnknownKey(owner: String) -> SpecError? {
        for entry in opened {
            for member in entry.members where !entry.asked.contains(member.key) {
                let place =
                    entry.path.isEmpty ? owner : "'\(entry.path.map(\.stringValue).joined(separator: "."))' of \(owner)"
                let known = entry.asked.filter { !entry.path.isEmpty || !preread.contains($0) }.sorted()
                let hint: String
                if let guess = Suggestion.closest(to: member.key, in: known) {
                    hint = "did you mean '\(guess)'?"
                } else if known.isEmpty {
                    hint = "it takes no keys"
                } else {
                    hint = "expected " + known.map { "'\($0)'" }.joined(separator: ", ")
                }
                return SpecError(
                    .unknownKey, at: member.keyLocation, "unknown key '\(member.key)' in \(place); \(hint)")
            }
        }
        return nil
    }
}
