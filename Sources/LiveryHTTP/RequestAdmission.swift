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
/// - **Token.** With read tokens set (`--read-token-file`; the push token is accepted too), a
///   request for anything but an open route must carry `Authorization: Bearer <token>`,
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

    /// The names a loopback daemon always accepts in `Host`.
    public static let loopbackNames = ["localhost", "127.0.0.1", "[::1]"]

    /// The accepted `Host` names; `nil` accepts any.
    private let hosts: [AcceptedHost]?
    /// The tokens that open the routes that are not open to all; empty requires none.
    private let tokens: [BearerToken]

    /// Creates the rule: `hosts` are the names accepted in `Host` (`nil`: any), `tokens` those
    /// accepted in `Authorization` (empty: no token needed).
    public init(hosts: [String]?, tokens: [BearerToken]) {
        self.hosts = hosts.map { $0.compactMap(AcceptedHost.init) }
        self.tokens = tokens
    }

    /// Whether tokens are required.
    public var requiresToken: Bool { !tokens.isEmpty }

    /// The verdict on a request whose `Host` value is `host` (`nil` when it has none, or more
    /// than one) and whose `Authorization` value is `authorization`, as bytes; `needsToken` is
    /// `false` for the routes open to all (`/healthz`, `/readyz`, the studio's own files).
    public func decide(
        rawHost host: UnsafeRawBufferPointer?, rawAuthorization authorization: UnsafeRawBufferPointer?,
        needsToken: Bool
    ) -> Verdict {
        guard let host, !host.isEmpty else { return .badHost }
        if let hosts, !Self.names(host, oneOf: hosts) { return .misdirected }
        guard !tokens.isEmpty else { return .admitted(authenticated: false) }
        let authenticated = authorization.map { value in tokens.contains { $0.authorizes(value) } } ?? false
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

    /// Whether `host` (`name` or `name:port`, `[v6]` or `[v6]:port`) names one of `names`: the
    /// first name it starts with decides. The raw path asks this for every request, so it reads
    /// each byte of `host` about once and compares a word at a time where it can.
    private static func names(_ host: UnsafeRawBufferPointer, oneOf names: [AcceptedHost]) -> Bool {
        for name in names {
            let count = name.bytes.count
            guard host.count == count || (name.takesPort && host.count > count && host[count] == UInt8(ascii: ":"))
            else { continue }
            guard name.bytes.withUnsafeBytes({ Self.starts(host, with: $0) }) else { continue }
            var index = count + 1
            while index < host.count {
                guard (0x30...0x39).contains(host[index]) else { return false }
                index += 1
            }
            return true
        }
        return false
    }

    /// Whether `host` starts with `name` (lowercase) in any ASCII case. Exact words first: a
    /// client sends the name as it was given, almost always in lowercase.
    private static func starts(_ host: UnsafeRawBufferPointer, with name: UnsafeRawBufferPointer) -> Bool {
        var index = 0
        while index + 8 <= name.count,
            host.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                == name.loadUnaligned(fromByteOffset: index, as: UInt64.self)
        {
            index += 8
        }
        while index < name.count, lowercased(host[index]) == name[index] { index += 1 }
        return index == name.count
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        (0x41...0x5A).contains(byte) ? byte | 0x20 : byte
    }

    /// A name accepted in `Host`, lowercased. A `Host` is read as its name up to the first `:`
    /// (after the `]` of an IPv6 address), then `:` and a port of digits; so a name with a `:`
    /// of its own is never matched (and dropped here), and one that opens a `[` it never
    /// closes is matched only without a port.
    private struct AcceptedHost {
        let bytes: [UInt8]
        let takesPort: Bool

        init?(_ name: String) {
            bytes = Array(name.lowercased().utf8)
            let closes = bytes.firstIndex(of: UInt8(ascii: "]"))
            let searchFrom = bytes.first == UInt8(ascii: "[") ? (closes ?? bytes.count) : 0
            guard !bytes[searchFrom...].contains(UInt8(ascii: ":")) else { return nil }
            takesPort = bytes.first != UInt8(ascii: "[") || closes != nil
        }
    }
}
