import Foundation
import Livery

/// The specs' design tokens as Tokens Studio for Figma's "Generic Versioned Storage" holds them:
/// `{"version", "updatedAt", "values": {"<set>": tokens}, "$themes": [...]}`.
///
/// Each token set is the file `tokens/<set>.tokens.json`. Tokens Studio's themes become one
/// resolver document, `tokens/studio.resolver.json`: each theme a context of a modifier named
/// after the theme's group (`theme` when it has none), its sets (enabled or source) the
/// context's sources in the order the push lists the sets. The themes as pushed are kept in the
/// resolver's `$extensions["studio.tokens"]`, so a pull returns them unchanged.
enum TokensStudioStorage {
    /// Where the daemon serves the storage.
    static let path = CrossOriginPolicy.tokensStudioPath
    /// The folder token sets live in.
    static let folder = "tokens"
    /// The resolver document the themes become.
    static let resolverPath = "tokens/studio.resolver.json"
    /// The extension key the pushed themes are kept under.
    static let extensionKey = "studio.tokens"

    /// The path of set `name`.
    static func path(ofSet name: String) -> String { "\(folder)/\(name).tokens.json" }

    /// The set a path holds, if it is a token file under ``folder``.
    static func setName(of path: String) -> String? {
        guard path.hasPrefix(folder + "/") else { return nil }
        let name = path.dropFirst(folder.count + 1)
        for suffix in [".tokens.json", ".tokens"] where name.hasSuffix(suffix) {
            return String(name.dropLast(suffix.count))
        }
        return nil
    }

    /// What a pull answers: every set of `sources`, parsed, and the themes last pushed.
    static func payload(of sources: SpecSourceSet, version: String, updatedAt: Date) throws(Problem) -> SpecNode {
        var values: [(String, SpecNode)] = []
        var themes = SpecNode(.sequence([]), at: SpecNode.built)
        for path in sources.sortedPaths {
            guard let data = sources.files[path]?.data else { continue }
            if path == resolverPath {
                themes = try parse(data, path)["$extensions"]?[extensionKey]?["themes"] ?? themes
            } else if let name = setName(of: path) {
                values.append((name, try parse(data, path)))
            }
        }
        return .object([
            ("version", .text(version)),
            ("updatedAt", .text(updatedAt.formatted(.iso8601))),
            ("values", .object(values)),
            ("$themes", themes),
        ])
    }

    /// The change a push makes to `current`: each set written, sets it no longer has removed,
    /// its themes as the resolver (removed when it has none).
    static func change(pushing body: SpecNode, over current: SpecSourceSet) throws(Problem) -> ChangeSet {
        let shape =
            #"the body must be Tokens Studio's {"version", "updatedAt", "values": {"<set>": tokens, …}, "$themes": […]}"#
        guard let values = body["values"]?.members, values.allSatisfy({ $0.value.members != nil }),
            body["version"].map({ $0.string != nil }) ?? true, body["updatedAt"].map({ $0.string != nil }) ?? true
        else { throw Problem.badRequest(shape) }
        if let themes = body["$themes"] {
            guard case .sequence = themes.value else { throw Problem.badRequest(shape) }
        }
        for set in values {
            guard let token = TokensStudioSet.legacyToken(in: set.value) else { continue }
            let name = token.isEmpty ? "the set itself" : "token '\(token.joined(separator: "."))'"
            throw Problem.badRequest(
                #"set '\#(set.key)' is in Tokens Studio's legacy token format (\#(name) has "value" and "type" without "$"); Livery reads the W3C DTCG format, {"$value": …, "$type": …}: choose the token format "W3C DTCG" in the sync provider's settings, then push again"#
            )
        }
        var files: [String: Data?] = [:]
        var order: [String] = []
        for set in values {
            let path = try validated(path(ofSet: set.key))
            files[path] = .some(Data(TokensStudioSet.normalised(set.value).prettyJSON.utf8))
            order.append(set.key)
        }
        for path in current.sortedPaths where setName(of: path) != nil && files[path] == nil {
            files[path] = .some(nil)
        }
        let themes = body["$themes"]
        if let themes, case .sequence(let list) = themes.value, !list.isEmpty {
            files[resolverPath] = .some(Data(try resolver(themes: themes, sets: order).prettyJSON.utf8))
        } else if current.files[resolverPath] != nil {
            files[resolverPath] = .some(nil)
        }
        let version = body["version"]?.string.map { " \($0)" } ?? ""
        return ChangeSet(files: files, message: "Tokens Studio\(version) push")
    }

    /// The resolver document for Tokens Studio's themes.
    static func resolver(themes: SpecNode, sets: [String]) throws(Problem) -> SpecNode {
        guard case .sequence(let list) = themes.value else { throw Problem.badRequest(#""$themes" must be a list"#) }
        var modifiers: [(name: String, contexts: [(String, SpecNode)])] = []
        for theme in list {
            guard let name = theme["name"]?.string, let selected = theme["selectedTokenSets"]?.members,
                selected.allSatisfy({ ["enabled", "source", "disabled"].contains($0.value.string) }),
                ["id", "group"].allSatisfy({ theme[$0].map { $0.string != nil } ?? true })
            else {
                throw Problem.badRequest(
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

    private static func validated(_ path: String) throws(Problem) -> String {
        do {
            return try SpecPath.validate(path)
        } catch {
            throw StoreError.forbiddenPath(error).problem
        }
    }

    private static func parse(_ data: Data, _ path: String) throws(Problem) -> SpecNode {
        do {
            return try SpecNode.parse(data, format: .json, source: path)
        } catch {
            throw StoreError.invalid([error]).problem
        }
    }
}
