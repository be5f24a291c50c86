/// How one surface names the files of a spec set: the single rule every place of a diagnostic
/// goes through — its location, where a duplicate was first defined, each step of a cycle.
///
/// A spec set stores files relative to its specs folder (`sub/b.yaml`). A terminal wants them as
/// the user wrote the folder (`Specs/sub/b.yaml`), so an editor can jump to them from where the
/// command ran; the daemon's answers keep them relative to its folder. Whatever the base, remote
/// documents keep their URL, and absolute paths and named in-memory sources (`<json>`) stay as
/// they are: they are not files of the folder.
public struct SpecFileNaming: Hashable, Sendable {
    /// The folder written before each file of the set; empty to keep the set's own names.
    public var folder: String
    /// Files named otherwise than under ``folder``, by their name in the set (`livery push`
    /// names the file it pushed by its local path).
    public var renamed: [String: String]

    /// Names files under `folder` (`"Specs"`: `sub/b.yaml` is `Specs/sub/b.yaml`; `""` or `"."`:
    /// as stored), except those in `renamed`.
    public init(folder: String, renamed: [String: String] = [:]) {
        self.folder = folder == "." ? "" : folder
        self.renamed = renamed
    }

    /// Files as the spec set stores them: relative to the specs folder.
    public static let asStored = SpecFileNaming(folder: "")

    /// The name of `file` (a path relative to the specs folder, a URL or a source's name).
    public func name(_ file: String) -> String {
        if let name = renamed[file] { return name }
        guard !folder.isEmpty, !file.hasPrefix("/"), !file.hasPrefix("<"), !file.contains("://") else { return file }
        return folder.hasSuffix("/") ? folder + file : folder + "/" + file
    }

    /// `location` with its file named by this rule.
    public func name(_ location: SourceLocation) -> SourceLocation {
        SourceLocation(file: name(location.file), line: location.line, column: location.column)
    }
}
