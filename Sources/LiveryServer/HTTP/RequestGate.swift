import Hummingbird
import LiveryHTTP
@_spi(LiveryInternal) import LiveryHTTP

/// What every parsed request head passes before it is answered: ``RequestAdmission`` (the same
/// rule the raw path applies to its bytes), then the connection budget's held requests for an
/// event stream. ``BundleRequestHandler`` asks it about each head and answers the refusals.
struct RequestGate: Sendable {
    /// The rule on `Host` and tokens.
    let admission: RequestAdmission
    /// The paths open without a token (`/healthz`, `/readyz`, the studio's files).
    let openRoutes: OpenRoutes
    /// Connections and held requests, per peer and in all.
    let budget: ConnectionBudget
    /// Who learns where the specs live, for the answers given before the router.
    let places: PlaceDisclosure

    /// What happens to `head`.
    enum Outcome {
        /// Answer it; `authenticated` tells whether it carried a token the daemon requires.
        case admitted(authenticated: Bool)
        /// Answer it with this problem, and close the connection after it if `closing`.
        case refused(Problem, closing: Bool)
    }

    /// The verdict on `head`, by ``RequestAdmission``.
    func admit(_ head: HTTPRequest) -> Outcome {
        // HTTPTypes moves the first `Host` into `authority`; any other stays a field.
        let host = head.headerFields[values: Self.host].isEmpty ? head.authority : nil
        let path = head.path.map { $0.prefix { $0 != "?" } } ?? ""
        // A CORS preflight (OPTIONS) never carries credentials, and its answer holds no data: the
        // methods and fields a route takes. The request it clears still needs the token.
        let verdict = admission.decide(
            host: host, authorization: head.headerFields[.authorization],
            needsToken: head.method != .options && !openRoutes.contains(path))
        switch verdict {
        case .admitted(let authenticated): return .admitted(authenticated: authenticated)
        case .badHost: return .refused(.badHost, closing: true)
        case .misdirected: return .refused(.misdirected, closing: false)
        case .unauthorized: return .refused(.readUnauthorized, closing: false)
        }
    }

    /// Whether `head` opens an event stream, which holds its connection for as long as it lasts.
    static func opensEventStream(_ head: HTTPRequest) -> Bool {
        head.method == .get
            && head.path.map { EnvironmentPath.split($0.prefix { $0 != "?" }).path == "/v1/events" } == true
    }

    private static let host = HTTPFields.Element.Name("Host")!
}

/// The paths of the routes open to every client, from the route table.
struct OpenRoutes: Sendable {
    private var exact: Set<Substring> = []
    private var prefixes: [String] = []

    /// The open routes' paths among `patterns` (router patterns: exact, or ending in `/**`).
    init(_ patterns: [String]) {
        for pattern in patterns {
            if pattern.hasSuffix("/**") {
                prefixes.append(String(pattern.dropLast(2)))
            } else {
                exact.insert(Substring(pattern))
            }
        }
    }

    /// Whether `path` (without its query) is one of them.
    func contains(_ path: Substring) -> Bool {
        exact.contains(path) || prefixes.contains { path.hasPrefix($0) }
    }
}

extension Problem {
    /// A request without exactly one `Host`, or with an empty one (RFC 9112 §3.2).
    static let badHost = Problem(
        kind: .badHost, detail: "an HTTP/1.1 request needs exactly one Host header naming this daemon")

    /// A `Host` this daemon does not answer for: a page whose name was rebound to its address.
    static let misdirected = Problem(
        kind: .misdirected,
        detail:
            "this daemon does not answer for that Host; it answers localhost, 127.0.0.1, [::1] and the names given with --allowed-host"
    )

    /// A read without the read token, when the daemon requires one.
    static let readUnauthorized = Problem(
        kind: .unauthorized,
        detail: "this daemon was started with --read-token-file: requests need 'Authorization: Bearer <token>'",
        headers: [.wwwAuthenticate: #"Bearer realm="livery""#])

    /// A held request (long-poll, event stream) beyond the connection budget.
    static let tooManyHeld = Problem(
        kind: .tooManyHeldRequests,
        detail:
            "the daemon holds as many long-polls and event streams as its limits allow (--max-held-requests, --max-held-requests-per-peer); retry later",
        headers: [.retryAfter: "5"])
}
