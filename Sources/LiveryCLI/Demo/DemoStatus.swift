/// What the demo's two bottom lines say: the status (theme, content hash, push address) and the
/// last error, if the newest change was rejected.
package struct DemoStatus: Hashable, Sendable {
    /// The active theme; nil is the spec's base variables, shown as "default".
    package var theme: String?
    /// The first characters of the applied content's hash, once a spec has applied.
    package var contentHash: String?
    /// Where `livery push` reaches the demo's daemon.
    package var serverURL: String?
    /// The newest rejected change, compiler style (`file:line:column: error: …`); nil once a
    /// good change applies.
    package var error: String?

    package init(theme: String? = nil, contentHash: String? = nil, serverURL: String? = nil, error: String? = nil) {
        self.theme = theme
        self.contentHash = contentHash
        self.serverURL = serverURL
        self.error = error
    }

    /// The status line's text.
    var line: String {
        var parts = ["theme: \(theme ?? "default")", "specs: \(contentHash ?? "none yet")"]
        if let serverURL { parts.append("push: \(serverURL)") }
        parts.append("t: next theme  q: quit")
        return " " + parts.joined(separator: " │ ")
    }
}
