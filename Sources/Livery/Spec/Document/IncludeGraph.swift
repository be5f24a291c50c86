/// Follows includes from the root files of a ``SpecSourceSet``, reading each file once, and
/// merges what it reaches in order (included files before the files that include them).
struct IncludeGraph {
    private let set: SpecSourceSet
    private let limits: ReaderLimits
    private var parsed: [String: SpecFile] = [:]
    private var finished: Set<String> = []
    private var stack: [String] = []
    private(set) var order: [SpecFile] = []
    private(set) var errors: [SpecError] = []

    init(set: SpecSourceSet, limits: ReaderLimits) {
        self.set = set
        self.limits = limits
    }

    mutating func visit(_ path: String) {
        guard !finished.contains(path) else { return }
        guard let file = parse(path) else {
            finished.insert(path)
            return
        }
        stack.append(path)
        for include in file.includes {
            guard let target = resolve(include, from: path) else { continue }
            if let start = stack.firstIndex(of: target) {
                let cycle = (stack[start...] + [target]).joined(separator: " → ")
                errors.append(SpecError(.cycle, at: include.location, "include cycle: \(cycle)"))
                continue
            }
            visit(target)
        }
        stack.removeLast()
        finished.insert(path)
        order.append(file)
    }

    private mutating func parse(_ path: String) -> SpecFile? {
        if let file = parsed[path] { return file }
        guard let source = set.files[path] else { return nil }
        do {
            let root = try SpecReader.read(source.data, format: source.format, source: path, limits: limits)
            let file = SpecFile(path: path, root: root, errors: &errors)
            parsed[path] = file
            return file
        } catch {
            errors.append(error)
            return nil
        }
    }

    /// The included file's path in the set, or nil after recording why it cannot be included.
    private mutating func resolve(_ include: SpecFile.Include, from path: String) -> String? {
        // Any URL (http, https, file, ftp, …): includes only ever name files of the folder, and
        // nothing is fetched, so a spec cannot make the daemon or an app reach the network (SSRF).
        if include.path.firstMatch(of: /^[A-Za-z][A-Za-z0-9+.\-]*:\/\//) != nil {
            errors.append(SpecError(.forbiddenPath, at: include.location,
                "remote include '\(include.path)' is not allowed; include files of the specs folder"))
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
                errors.append(SpecError(.forbiddenPath, at: include.location,
                    "include '\(include.path)' goes through '\(link)', a symbolic link to a folder"))
            } else {
                errors.append(SpecError(.io, at: include.location, "include '\(include.path)' names no spec file in the folder"))
            }
            return nil
        }
        return target
    }
}
