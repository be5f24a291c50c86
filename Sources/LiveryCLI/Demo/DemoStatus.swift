/// What the demo's two bottom lines say: the status (theme, content hash, push address) and the
/// last error, if the newest change was rejected.
package struct DemoStatus: Hashable, Sendable {
    /// The specs folder, named in the header so the user knows which files to edit (it may be a
    /// fresh folder the demo wrote the examples into).
    package var folder: String?
    /// The active theme; nil is the spec's base variables, shown as "default".
    package var theme: String?
    /// The first characters of the applied content's hash, once a spec has applied.
    package var contentHash: String?
    /// Where `livery push` reaches the demo's daemon.
    package var serverURL: String?
    /// The newest rejected change, compiler style (`file:line:column: error: …`); nil once a
    /// good change applies.
    package var error: String?

    package init(
        folder: String? = nil, theme: String? = nil, contentHash: String? = nil, serverURL: String? = nil,
        error: String? = nil
    ) {
        self.folder = folder
        self.theme = theme
        self.contentHash = contentHash
        self.serverURL = serverURL
        self.error = error
    }

    /// The header's text.
    var header: String {
        guard let folder else { return " livery demo" }
        return " livery demo · edit \(folder)/*.yaml, or livery push them"
    }

    /// The status line's text.
    var line: String {
        var parts = ["theme: \(theme ?? "default")", "specs: \(contentHash ?? "none yet")"]
        if let serverURL { parts.append("push: \(serverURL)") }
        parts.append("t: next theme  q: quit")
        return " " + parts.joined(separator: " │ ")
    }
}
