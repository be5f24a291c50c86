/// One route of the daemon's table (``LiveryDaemon/routeTable``): the method and router pattern
/// it answers, and who may call it.
package struct DaemonRoute: Sendable, Hashable {
    /// `GET`, `PUT`, `POST`, `DELETE`; every `GET` route also answers `HEAD`.
    public var method: String
    /// The router pattern: `{name}` is one path segment, `**` the rest of the path.
    public var path: String
    /// Needs the push token (and is refused by `--read-only`).
    public var writes: Bool
    /// Answered without a token even with `--read-token-file`: `/healthz`, `/readyz` and the
    /// studio's own files.
    public var isOpen: Bool
}
