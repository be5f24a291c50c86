import Foundation

/// Reads a resolver document (Resolver Module 2025.10, `*.resolver.json`) of a specs folder and
/// turns it into Livery's terms: the tokens it resolves to with every modifier at its default
/// context are the variables, and each context of each modifier is a theme (see
/// ``SpecFile/init(resolverAt:resolver:errors:)``).
///
/// Supported: `version` 2025.10; `sets` and `modifiers` (with `sources` or `contexts`,
/// `description`, `default`, `$extensions`); a `resolutionOrder` of references to them or of
/// inline sets and modifiers; sources that are references to token files of the folder
/// (relative to the resolver), references to `#/sets/…`, or inline tokens. Refused with a
/// located error: another version, references to remote documents or into other files
/// (`file.json#/…`), references to a modifier outside `resolutionOrder`, and references into
/// `resolutionOrder`.
struct TokenResolver {
    /// One set or modifier of the resolution order, with the token documents of each context (a
    /// set has one context).
    struct Step {
        var name: String
        var isModifier: Bool
        var contexts: [Context]
        /// The context the variables take: the `default`, or the first.
        var defaultIndex: Int
    }

    /// A context of a modifier: its name, where it is named, and its sources in order.
    struct Context {
        var name: String
        var location: SourceLocation
        var sources: [SpecNode]
    }

    private static let rootKeys: Set<String> = [
        "name", "version", "description", "sets", "modifiers", "resolutionOrder", "$schema", "$defs", "$extensions",
    ]

    let path: String
    /// Where the document starts.
    var location: SourceLocation { root.location }
    private let root: SpecNode
    private let limits: ReaderLimits
    private let files: (String) -> Data?
    private(set) var steps: [Step] = []
    /// The token files the resolver reads: they are not read again as files of the folder.
    private(set) var claimed: Set<String> = []
    private(set) var errors: [SpecError] = []

    /// Reads the resolver at `path`, whose parsed document is `root`; `files` gives the bytes
    /// of a file of the folder by its path.
    init(path: String, root: SpecNode, limits: ReaderLimits, files: @escaping (String) -> Data?) {
        self.path = path
        self.root = root
        self.limits = limits
        self.files = files
        guard let members = root.members else {
            errors.append(mismatch(root, "a resolver document (an object with 'version' and 'resolutionOrder')"))
            return
        }
        for member in members where !Self.rootKeys.contains(member.key) {
            errors.append(
                SpecError(
                    .unknownKey, at: member.keyLocation,
                    "unknown resolver property '\(member.key)'; expected \(Self.rootKeys.sorted().joined(separator: ", "))"
                ))
        }
        guard let version = root["version"] else {
            errors.append(SpecError(.missingKey, at: root.location, "resolver has no 'version'; expected \"2025.10\""))
            return
        }
        guard version.string == "2025.10" else {
            errors.append(
                SpecError(
                    .invalidValue, at: version.location,
                    "resolver version \(version.foundDescription) is not supported; expected \"2025.10\""))
            return
        }
        guard let order = root["resolutionOrder"] else {
            errors.append(SpecError(.missingKey, at: root.location, "resolver has no 'resolutionOrder'"))
            return
        }
        guard case .sequence(let items) = order.value else {
            errors.append(mismatch(order, "a list of sets and modifiers"))
            return
        }
        var names: [String: SourceLocation] = [:]
        for item in items {
            guard let step = readStep(item) else { continue }
            if let first = names[step.name] {
                errors.append(
                    SpecError(
                        .duplicateDefinition, at: item.location,
                        "'\(step.name)' is in resolutionOrder twice (first at \(place: first))"))
                continue
            }
            names[step.name] = item.location
            steps.append(step)
        }
    }

    /// A set or modifier of `resolutionOrder`: a reference to one, or one written inline.
    private mutating func readStep(_ item: SpecNode) -> Step? {
        guard let members = item.members else {
            errors.append(mismatch(item, "a reference {\"$ref\": \"#/sets/…\"} or an inline set or modifier"))
            return nil
        }
        if let reference = item["$ref"] {
            guard let pointer = reference.string, let (kind, name) = Self.sectionPointer(pointer) else {
                errors.append(
                    SpecError(
                        .invalidValue, at: reference.location,
                        "resolutionOrder may reference only '#/sets/<name>' or '#/modifiers/<name>', found \(reference.foundDescription)"
                    ))
                return nil
            }
            guard let definition = root[kind]?[name] else {
                errors.append(
                    SpecError(
                        .unresolvedReference, at: reference.location,
                        "'\(pointer)' names no \(kind.dropLast()) of this resolver"))
                return nil
            }
            if members.count > 1 {
                errors.append(
                    SpecError(
                        .unknownKey, at: members.first { $0.key != "$ref" }!.keyLocation,
                        "Livery does not extend a referenced set or modifier with local properties; write it inline instead"
                    ))
            }
            return readDefinition(definition, name: name, isModifier: kind == "modifiers")
        }
        guard let name = item["name"]?.string else {
            errors.append(SpecError(.missingKey, at: item.location, "an inline set or modifier needs a 'name'"))
            return nil
        }
        switch item["type"]?.string {
        case "set": return readDefinition(item, name: name, isModifier: false, inline: true)
        case "modifier": return readDefinition(item, name: name, isModifier: true, inline: true)
        default:
            errors.append(
                SpecError(
                    .missingKey, at: (item["type"] ?? item).location,
                    "an inline set or modifier needs 'type': \"set\" or \"modifier\""))
            return nil
        }
    }

    private mutating func readDefinition(
        _ node: SpecNode, name: String, isModifier: Bool, inline: Bool = false
    ) -> Step? {
        guard let members = node.members else {
            errors.append(mismatch(node, isModifier ? "a modifier" : "a set"))
            return nil
        }
        let allowed = Set(
            (isModifier ? ["contexts", "default"] : ["sources"]) + ["description", "$extensions"]
                + (inline ? ["name", "type"] : []))
        for member in members where !allowed.contains(member.key) {
            errors.append(
                SpecError(
                    .unknownKey, at: member.keyLocation,
                    "unknown \(isModifier ? "modifier" : "set") property '\(member.key)'; expected \(allowed.sorted().joined(separator: ", "))"
                ))
        }
        guard isModifier else {
            guard let sources = node["sources"] else {
                errors.append(SpecError(.missingKey, at: node.location, "set '\(name)' has no 'sources'"))
                return nil
            }
            let context = Context(name: "", location: node.location, sources: readSources(sources))
            return Step(name: name, isModifier: false, contexts: [context], defaultIndex: 0)
        }
        guard let contextsNode = node["contexts"], let contextMembers = contextsNode.members else {
            errors.append(SpecError(.missingKey, at: node.location, "modifier '\(name)' has no 'contexts' object"))
            return nil
        }
        guard !contextMembers.isEmpty else {
            errors.append(SpecError(.invalidValue, at: contextsNode.location, "modifier '\(name)' has no contexts"))
            return nil
        }
        let contexts = contextMembers.map {
            Context(name: $0.key, location: $0.keyLocation, sources: readSources($0.value))
        }
        var defaultIndex = 0
        if let defaultNode = node["default"] {
            guard let index = contexts.firstIndex(where: { $0.name == defaultNode.string }) else {
                errors.append(
                    SpecError(
                        .invalidValue, at: defaultNode.location,
                        "default \(defaultNode.foundDescription) is not a context of modifier '\(name)'; expected \(contexts.map { "'\($0.name)'" }.joined(separator: ", "))"
                    ))
                return nil
            }
            defaultIndex = index
        }
        return Step(name: name, isModifier: true, contexts: contexts, defaultIndex: defaultIndex)
    }

    /// The token documents of a list of sources, references followed.
    private mutating func readSources(_ node: SpecNode, through sets: [String] = []) -> [SpecNode] {
        guard case .sequence(let items) = node.value else {
            errors.append(mismatch(node, "a list of sources"))
            return []
        }
        var documents: [SpecNode] = []
        for item in items {
            guard let reference = item["$ref"] else {
                if item.members == nil {
                    errors.append(mismatch(item, "a reference {\"$ref\": …} or inline tokens"))
                } else {
                    documents.append(item)
                }
                continue
            }
            documents += readReference(reference, through: sets)
        }
        return documents
    }

    private mutating func readReference(_ reference: SpecNode, through sets: [String]) -> [SpecNode] {
        guard let target = reference.string else {
            errors.append(mismatch(reference, "a reference"))
            return []
        }
        if target.hasPrefix("#") {
            guard let (kind, name) = Self.sectionPointer(target), kind == "sets" else {
                let why =
                    target.hasPrefix("#/modifiers/")
                    ? "only resolutionOrder may reference a modifier" : "a source may reference only '#/sets/<name>'"
                errors.append(
                    SpecError(.invalidValue, at: reference.location, "'\(target)' is not a valid source: \(why)"))
                return []
            }
            guard let set = root["sets"]?[name], let sources = set["sources"] else {
                errors.append(
                    SpecError(.unresolvedReference, at: reference.location, "'\(target)' names no set of this resolver")
                )
                return []
            }
            if sets.contains(name) {
                errors.append(
                    SpecError(
                        .cycle, at: reference.location,
                        "set reference cycle: \((sets + [name]).joined(separator: " → "))"))
                return []
            }
            return readSources(sources, through: sets + [name])
        }
        if target.contains("://") || target.contains("#") {
            errors.append(
                SpecError(
                    .forbiddenPath, at: reference.location,
                    "'\(target)' is not supported: Livery reads whole token files of the specs folder, not remote documents or parts of files"
                ))
            return []
        }
        let folder = SpecPath.folder(of: path)
        let joined = folder.isEmpty ? target : folder + "/" + target
        let file: String
        do {
            file = try SpecPath.validate(joined, location: reference.location)
        } catch {
            errors.append(error)
            return []
        }
        guard let data = files(file) else {
            errors.append(
                SpecError(.unresolvedReference, at: reference.location, "'\(target)' names no file in the specs folder")
            )
            return []
        }
        claimed.insert(file)
        do {
            return [try SpecReader.read(data, format: .json, source: file, limits: limits)]
        } catch {
            errors.append(error)
            return []
        }
    }

    /// `("sets", "color")` for `#/sets/color`; nil for any other pointer.
    private static func sectionPointer(_ pointer: String) -> (String, String)? {
        let parts = pointer.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "#", parts[1] == "sets" || parts[1] == "modifiers", !parts[2].isEmpty else {
            return nil
        }
        return (
            String(parts[1]),
            parts[2].replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
        )
    }

    private func mismatch(_ node: SpecNode, _ expected: String) -> SpecError {
        SpecError(.typeMismatch, at: node.location, "expected \(expected), found \(node.foundDescription)")
    }
}
