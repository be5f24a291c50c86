/// The rules for paths of spec files and includes: relative, inside the folder, not hidden, free
/// of control characters, ending in `.json`, `.yaml`, `.yml` or `.tokens`.
public enum SpecPath {
    /// The normalised path (`a/./b` → `a/b`), or an error saying which rule it breaks.
    public static func validate(_ path: String, location: SourceLocation? = nil) throws(SpecError) -> String {
        let at = location ?? .start(of: path)
        // A NUL ends the path early in every system call (`a.yaml%00.json` would read `a.yaml`
        // as JSON, or create a folder `a.yaml`), and the other control characters only hide a
        // name from the people reading logs and listings.
        if let control = path.unicodeScalars.first(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            let code =
                "U+" + String(repeating: "0", count: 4 - String(control.value, radix: 16).count)
                + String(control.value, radix: 16, uppercase: true)
            throw SpecError(.forbiddenPath, at: at, "\(path.debugDescription) contains the control character \(code)")
        }
        // Bytes, not Characters: a combining mark after `/` or `.` (or a prepended mark before
        // `/`) merges them into one Character, which hid a leading `/`, a separator and a
        // leading dot from Character comparisons; the file system sees the bytes.
        let slash = UInt8(ascii: "/"), dot = UInt8(ascii: ".")
        if path.utf8.first == slash {
            throw SpecError(
                .forbiddenPath, at: at, "'\(path)' is an absolute path; spec paths are relative to the specs folder")
        }
        var parts: [Substring] = []
        for bytes in path.utf8.split(separator: slash, omittingEmptySubsequences: true) {
            let part = Substring(bytes)
            if bytes.elementsEqual(".".utf8) { continue }
            if bytes.elementsEqual("..".utf8) {
                guard parts.popLast() != nil else {
                    throw SpecError(.forbiddenPath, at: at, "'\(path)' leaves the specs folder")
                }
                continue
            }
            if bytes.first == dot {
                throw SpecError(.forbiddenPath, at: at, "'\(path)' names a hidden file or folder")
            }
            parts.append(part)
        }
        guard !parts.isEmpty else {
            throw SpecError(.forbiddenPath, at: at, "'\(path)' names no file")
        }
        let normalised = parts.joined(separator: "/")
        guard format(of: normalised) != nil else {
            throw SpecError(.forbiddenPath, at: at, "'\(path)' is not a .json, .yaml, .yml or .tokens file")
        }
        return normalised
    }

    /// The format a path's extension names, if any.
    public static func format(of path: String) -> SpecFormat? {
        guard let dot = path.lastIndex(of: "."), !path[path.index(after: dot)...].contains("/") else { return nil }
        return SpecFormat(pathExtension: String(path[path.index(after: dot)...]))
    }

    /// The folder part of a relative path ("" at the top).
    static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return String(path[..<slash])
    }
}
