/// Whether the daemon answers a request at all, from the `Host` it names and the token it
/// carries: the one rule every path that reads a request applies, the raw bytes of a plain
/// bundle request as well as the parsed heads the router and the event-loop handler see.
///
/// - **Host.** A browser page whose DNS name was rebound to 127.0.0.1 reaches a loopback
///   daemon with its own name in `Host`. So when ``hosts`` is set (always on a loopback
///   address: `localhost`, `127.0.0.1` and `[::1]`, plus the names given with
///   `--allowed-host`), a request must name one of them, with or without a port: any other
///   name is ``Verdict/misdirected`` (421). A request without exactly one `Host` is
///   ``Verdict/badHost`` (400), as RFC 9112 §3.2 requires.
/// - **Key.** With ``readKeys`` set (the daemon requires a key to read), a request for anything
///   but an open route must carry `Authorization: Bearer <key>` naming a key that may read,
///   compared in constant time; otherwise ``Verdict/unauthorized`` (401).
///
/// The Host is checked first, so a page of another origin learns nothing about the token.
@_spi(LiveryInternal) public struct RequestAdmission: Sendable {
    /// What to do with a request.
    public enum Verdict: Equatable, Sendable {
        /// Answer it. `authenticated` says whether it carried one of the tokens; always `false`
        /// when none is required.
        case admitted(authenticated: Bool)
        /// No `Host`, more than one, or an empty one: 400.
        case badHost
        /// A `Host` that is not one of the accepted names: 421.
        case misdirected
        /// A token is required and the request carries none of them: 401.
        case unauthorized
    }

    /// The names a loopback daemon always accepts in `Host`; the one Livery's clients use by
    /// default first, since the names are tried in turn.
    public static let loopbackNames = ["127.0.0.1", "localhost", "[::1]"]

    /// The accepted `Host` names; `nil` accepts any.
    private let hosts: AcceptedHosts?
    /// What tells the keys that may read; `nil` requires none.
    private let readKeys: (any ReadKeyCheck)?

    /// Creates the rule: `hosts` are the names accepted in `Host` (`nil`: any), `readKeys` what
    /// tells whether an `Authorization` value may read (`nil`: no key needed).
    public init(hosts: [String]?, readKeys: (any ReadKeyCheck)?) {
        self.hosts = hosts.map(AcceptedHosts.init)
        self.readKeys = readKeys
    }

    /// Creates the rule with fixed `tokens` (empty: no token needed).
    public init(hosts: [String]?, tokens: [BearerToken]) {
        self.init(hosts: hosts, readKeys: tokens.isEmpty ? nil : TokenList(tokens: tokens))
    }

    /// Whether a key is required.
    public var requiresToken: Bool { readKeys != nil }

    /// The verdict on a request whose `Host` value is `host` (`nil` when it has none, or more
    /// than one) and whose `Authorization` value is `authorization`, as bytes; `needsToken` is
    /// `false` for the routes open to all (`/healthz`, `/readyz`, the studio's own files).
    public func decide(
        rawHost host: UnsafeRawBufferPointer?, rawAuthorization authorization: UnsafeRawBufferPointer?,
        needsToken: Bool
    ) -> Verdict {
        guard let host, !host.isEmpty else { return .badHost }
        if let hosts, !hosts.admit(host) { return .misdirected }
        guard let readKeys else { return .admitted(authenticated: false) }
        let authenticated = authorization.map { readKeys.admitsRead($0) } ?? false
        if needsToken, !authenticated { return .unauthorized }
        return .admitted(authenticated: authenticated)
    }

    /// The verdict on a parsed request: its `Host` (the only one) and `Authorization` values.
    public func decide(host: String?, authorization: String?, needsToken: Bool) -> Verdict {
        var host = host
        var authorization = authorization
        return withBytes(of: &host) { host in
            withBytes(of: &authorization) { decide(rawHost: host, rawAuthorization: $0, needsToken: needsToken) }
        }
    }

    private func withBytes<Result>(
        of text: inout String?, _ body: (UnsafeRawBufferPointer?) -> Result
    ) -> Result {
        guard var value = text else { return body(nil) }
        return value.withUTF8 { body(UnsafeRawBufferPointer($0)) }
    }
}
