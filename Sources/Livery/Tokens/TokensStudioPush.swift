import Foundation

/// A push to Tokens Studio for Figma's "Generic Versioned Storage", read:
/// `{"version", "updatedAt", "values": {"<set>": tokens}, "$themes": [...]}` checked for shape,
/// each set in the W3C DTCG token format brought to the Format Module (``TokensStudioSet``).
///
/// The daemon's storage endpoint (LiveryServer's `TokensStudioStorage`) writes what this reads
/// as files; the reading is here, free of the server, so that the fuzz targets can reach it.
@_spi(LiveryInternal) public struct TokensStudioPush: Sendable {
    /// Why a push is refused: the body is not the storage's shape, a set is in the legacy token
    /// format, or a theme is malformed. The daemon answers it as a 400 with this message.
    public struct Refusal: Error, Equatable, Sendable {
        /// What is wrong and what was expected.
        public let message: String
    }

    /// The extension key the pushed themes are kept under in the resolver document.
    public static let extensionKey = "studio.tokens"

    /// Each set's name and its tokens, normalised, in the order of the push.
    public let sets: [(name: String, tokens: SpecNode)]
    /// The pushed themes (a list), nil when the push has none or an empty list.
    public let themes: SpecNode?
    /// The push's `version`, if it names one.
    public let version: String?

    /// Reads a parsed push body.
    ///
    /// - Throws: ``Refusal`` when the body is not the storage's shape or a set is in Tokens
    ///   Studio's legacy token format.
    public init(body: SpecNode) throws(Refusal) {
        let shape =
            #"the body must be Tokens Studio's {"version", "updatedAt", "values": {"<set>": tokens, …}, "$themes": […]}"#
        guard let values = body["values"]?.members, values.allSatisfy({ $0.value.members != nil }),
            body["version"].map({ $0.string != nil }) ?? true, body["updatedAt"].map({ $0.string != nil }) ?? true
        else { throw Refusal(message: shape) }
        if let themes = body["$themes"] {
            guard case .sequence = themes.value else { throw Refusal(message: shape) }
        }
        for set in values {
            guard let token = TokensStudioSet.legacyToken(in: set.value) else { continue }
            let name = token.isEmpty ? "the set itself" : "token '\(token.joined(separator: "."))'"
            throw Refusal(
                message:
                    #"set '\#(set.key)' is in Tokens Studio's legacy token format (\#(name) has "value" and "type" without "$"); Livery reads the W3C DTCG format, {"$value": …, "$type": …}: choose the token format "W3C DTCG" in the sync provider's settings, then push again"#
            )
        }
        sets = values.map { ($0.key, TokensStudioSet.normalised($0.value)) }
        if let themes = body["$themes"], case .sequence(let list) = themes.value, !list.isEmpty {
            self.themes = themes
        } else {
            themes = nil
        }
        version = body["version"]?.string
    }

    /// The resolver document for Tokens Studio's themes: each theme a context of a modifier named
    /// after the theme's group (`theme` when it has none), its sets (enabled or source) the
    /// context's sources in the order of `sets`, and the themes as pushed kept in
    /// `$extensions["studio.tokens"]`.
    ///
    /// - Throws: ``Refusal`` when `themes` is not a list of well-formed themes.
    public static func resolver(themes: SpecNode, sets: [String]) throws(Refusal) -> SpecNode {
        guard case .sequence(let list) = themes.value else { throw Refusal(message: #""$themes" must be a list"#) }
        var modifiers: [(name: String, contexts: [(String, SpecNode)])] = []
        for theme in list {
            guard let name = theme["name"]?.string, let selected = theme["selectedTokenSets"]?.members,
                selected.allSatisfy({ ["enabled", "source", "disabled"].contains($0.value.string) }),
                ["id", "group"].allSatisfy({ theme[$0].map { $0.string != nil } ?? true })
            else {
                throw Refusal(
                    message:
                        #"each of "$themes" needs a "name" and "selectedTokenSets" ({"<set>": "enabled", "source" or "disabled"}), and "id" and "group" are strings"#
                )
            }
            let used = Set(selected.filter { $0.value.string == "enabled" || $0.value.string == "source" }.map(\.key))
            let sources = sets.filter(used.contains).map { SpecNode.object([("$ref", .text("\($0).tokens.json"))]) }
            let group = theme["group"]?.string ?? "theme"
            let context = (name, SpecNode(.sequence(sources), at: SpecNode.built))
            if let index = modifiers.firstIndex(where: { $0.name == group }) {
                modifiers[index].contexts.append(context)
            } else {
                modifiers.append((group, [context]))
            }
        }
        return .object([
            ("version", .text("2025.10")),
            ("modifiers", .object(modifiers.map { ($0.name, .object([("contexts", .object($0.contexts))])) })),
            (
                "resolutionOrder",
                SpecNode(
                    .sequence(modifiers.map { .object([("$ref", .text("#/modifiers/" + pointerSegment($0.name)))]) }),
                    at: SpecNode.built)
            ),
            ("$extensions", .object([(extensionKey, .object([("themes", themes)]))])),
        ])
    }

    /// `name` as one segment of a JSON Pointer (RFC 6901: `~` is `~0`, `/` is `~1`).
    private static func pointerSegment(_ name: String) -> String {
        name.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }
}
