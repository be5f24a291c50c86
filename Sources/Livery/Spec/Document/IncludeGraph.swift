import Foundation

/// Follows includes from the root files of a ``SpecSourceSet``, reading each file once, and
/// merges what it reaches in order (included files before the files that include them).
///
/// Remote includes are nodes too, keyed by their canonical URL (which no folder path can equal:
/// a path never holds `//`). Their documents come from ``RemoteIncludes/documents``; an allowed
/// URL without one is recorded in ``missing`` for the loader to fetch.
struct IncludeGraph {
    private let set: SpecSourceSet
    private let limits: ReaderLimits
    private let remote: RemoteIncludes
    /// The remote documents reached, by key.
    private var remoteKeys: [String: RemoteIncludeURL] = [:]
    /// Every distinct remote URL reached, fetched or not, counted against the limit.
    private var reachedURLs: Set<RemoteIncludeURL> = []
    /// Allowed remote includes whose documents are not in ``RemoteIncludes/documents`` yet.
    private(set) var missing: [(url: RemoteIncludeURL, location: SourceLocation)] = []
    private var parsed: [String: SpecFile] = [:]
    private var finished: Set<String> = []
    private var stack: [String] = []
    private(set) var order: [SpecFile] = []
    /// The token files resolver documents read: not visited again as files of the folder.
    private var claimed: Set<String> = []
    private(set) var errors: [SpecError] = []

    init(set: SpecSourceSet, limits: ReaderLimits, remote: RemoteIncludes = .off) {
        self.set = set
        self.limits = limits
        self.remote = remote
    }

    mutating func visit(_ path: String) {
        guard !finished.contains(path), !claimed.contains(path) else { return }
        guard let file = parse(path) else {
            finished.insert(path)
            return
        }
        stack.append(path)
        for include in file.includes {
            guard let target = resolve(include, from: path) else { continue }
            if let start = stack.firstIndex(of: target) {
                errors.append(SpecError(.cycle, at: include.location, Self.cycle(stack[start...] + [target])))
                continue
            }
            visit(target)
        }
        stack.removeLast()
        finished.insert(path)
        order.append(file)
    }

    /// `include cycle: a.yaml → b.yaml → a.yaml`, each step a file.
    private static func cycle(_ steps: some Sequence<String>) -> SpecMessage {
        var parts: [SpecMessage.Part] = [.text("include cycle: ")]
        for (index, step) in steps.enumerated() {
            if index > 0 { parts.append(.text(" → ")) }
            parts.append(.file(step))
        }
        return SpecMessage(parts: parts)
    }

    private mutating func parse(_ path: String) -> SpecFile? {
        if let file = parsed[path] { return file }
        let data: Data, format: SpecFormat
        if let source = set.files[path] {
            (data, format) = (source.data, source.format)
        } else if let url = remoteKeys[path], case .document(let body, let bodyFormat) = remote.documents[url] {
            (data, format) = (body, bodyFormat)
        } else {
            return nil
        }
        do {
            let file: SpecFile
            if SpecFile.kind(of: path) == .resolver {
                let root = try SpecReader.read(data, format: format, source: path, limits: limits)
                let resolver = TokenResolver(path: path, root: root, limits: limits) { [set] in set.files[$0]?.data }
                claimed.formUnion(resolver.claimed)
                file = SpecFile(resolverAt: path, resolver: resolver, errors: &errors)
            } else {
                file = try SpecFile.read(path: path, data: data, format: format, limits: limits, errors: &errors)
            }
            parsed[path] = file
            return file
        } catch {
            errors.append(error)
            return nil
        }
    }

    /// The included file's path in the set, or nil after recording why it cannot be included.
    private mutating func resolve(_ include: SpecFile.Include, from path: String) -> String? {
        // Any URL (http, https, file, ftp, …) is a remote include, refused unless allowed.
        if include.path.firstMatch(of: /^[A-Za-z][A-Za-z0-9+.\-]*:\/\//) != nil {
            return resolveRemote(include)
        }
        // A relative include in a served document would let its server read the folder's files.
        if remoteKeys[path] != nil {
            errors.append(
                SpecError(
                    .forbiddenPath, at: include.location,
                    "include '\(include.path)' in a remote document names a local file; a remote document can include only URLs the allow-list enables"
                ))
            return nil
        }
        let folder = SpecPath.folder(of: path)
        let joined = folder.isEmpty ? include.path : folder + "/" + include.path
        let target: String
        do {
            target = try SpecPath.validate(joined, location: include.location)
        } catch {
            let message = error.message.replacingOccurrences(of: "'\(joined)'", with: "include '\(include.path)'")
            errors.append(SpecError(error.code, at: include.location, message))
            return nil
        }
        guard set.files[target] != nil else {
            if let link = set.linkedFolders.first(where: { target.hasPrefix($0 + "/") }) {
                errors.append(
                    SpecError(
                        .forbiddenPath, at: include.location,
                        "include '\(include.path)' goes through '\(file: link)', a symbolic link to a folder"))
            } else {
                errors.append(
                    SpecError(.io, at: include.location, "include '\(include.path)' names no spec file in the folder"))
            }
            return nil
        }
        return target
    }

    /// The key of a remote include's document, or nil after recording why it is refused or
    /// noting that it still has to be fetched.
    private mutating func resolveRemote(_ include: SpecFile.Include) -> String? {
        let url: RemoteIncludeURL
        do {
            url = try RemoteIncludeURL(include.path, at: include.location)
        } catch {
            errors.append(error)
            return nil
        }
        guard !remote.allowList.isEmpty else {
            errors.append(
                SpecError(
                    .forbiddenPath, at: include.location,
                    "remote includes are off: '\(include.path)' is not fetched; enable it with --allow-include \(url.folder)"
                ))
            return nil
        }
        guard remote.allowList.permits(url) else {
            errors.append(
                SpecError(
                    .forbiddenPath, at: include.location,
                    "remote include '\(include.path)' is not in the allow-list (\(remote.allowList)); enable it with --allow-include \(url.folder)"
                ))
            return nil
        }
        if !reachedURLs.contains(url) {
            guard reachedURLs.count < remote.maxDocuments else {
                errors.append(
                    SpecError(
                        .limitExceeded, at: include.location,
                        "remote include '\(include.path)' is one too many: a spec may reach at most \(remote.maxDocuments) remote documents"
                    ))
                return nil
            }
            reachedURLs.insert(url)
        }
        switch remote.documents[url] {
        case nil:
            if !missing.contains(where: { $0.url == url }) { missing.append((url, include.location)) }
            return nil
        case .failed(let reason):
            errors.append(SpecError(.io, at: include.location, "cannot fetch \(url): \(reason)"))
            return nil
        case .document:
            remoteKeys[url.description] = url
            return url.description
        }
    }
}
