import Foundation
@_spi(LiveryInternal) import Livery

/// The specs' design tokens as Tokens Studio for Figma's "Generic Versioned Storage" holds them:
/// `{"version", "updatedAt", "values": {"<set>": tokens}, "$themes": [...]}`.
///
/// Each token set is the file `tokens/<set>.tokens.json`. Tokens Studio's themes become one
/// resolver document, `tokens/studio.resolver.json`: each theme a context of a modifier named
/// after the theme's group (`theme` when it has none), its sets (enabled or source) the
/// context's sources in the order the push lists the sets. The themes as pushed are kept in the
/// resolver's `$extensions["studio.tokens"]`, so a pull returns them unchanged. Livery's
/// `TokensStudioPush` reads a push; this writes what it read as files.
enum TokensStudioStorage {
    /// Where the daemon serves the storage.
    static let path = CrossOriginPolicy.tokensStudioPath
    /// The folder token sets live in.
    static let folder = "tokens"
    /// The resolver document the themes become.
    static let resolverPath = "tokens/studio.resolver.json"

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
                themes = try parse(data, path)["$extensions"]?[TokensStudioPush.extensionKey]?["themes"] ?? themes
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
    static func change(
        pushing body: SpecNode, over current: SpecSourceSet, author: String
    ) throws(Problem) -> ChangeSet {
        let push: TokensStudioPush
        do {
            push = try TokensStudioPush(body: body)
        } catch {
            throw Problem.badRequest(error.message)
        }
        var files: [String: Data?] = [:]
        for set in push.sets {
            files[try validated(path(ofSet: set.name))] = .some(Data(set.tokens.prettyJSON.utf8))
        }
        for path in current.sortedPaths where setName(of: path) != nil && files[path] == nil {
            files[path] = .some(nil)
        }
        if let themes = push.themes {
            let resolver: SpecNode
            do {
                resolver = try TokensStudioPush.resolver(themes: themes, sets: push.sets.map(\.name))
            } catch {
                throw Problem.badRequest(error.message)
            }
            files[resolverPath] = .some(Data(resolver.prettyJSON.utf8))
        } else if current.files[resolverPath] != nil {
            files[resolverPath] = .some(nil)
        }
        let version = push.version.map { " \($0)" } ?? ""
        return ChangeSet(files: files, message: "Tokens Studio\(version) push", author: author)
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
