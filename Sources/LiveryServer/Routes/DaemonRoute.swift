/// One route of the daemon's table (``LiveryDaemon/routeTable``): the method and router pattern
/// it answers, and who may call it.
package struct DaemonRoute: Sendable, Hashable {
    /// `GET`, `PUT`, `POST`, `DELETE`; every `GET` route also answers `HEAD`.
    public var method: String
    /// The router pattern: `{name}` is one path segment, `**` the rest of the path.
    public var path: String
    /// The scope a key needs to call it; `nil` for the routes open to all (`/healthz`,
    /// `/readyz`, the studio's own files).
    public var scope: KeyScope?
    /// Changes what clients apply, so `--read-only` refuses it.
    public var writes: Bool

    /// Whether it is answered without a key even where reads need one.
    public var isOpen: Bool { scope == nil }
}
