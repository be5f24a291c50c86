import Hummingbird
import LiveryHTTP
@_spi(LiveryInternal) import LiveryHTTP

/// What every parsed request head passes before it is answered: ``RequestAdmission`` (the same
/// rule the raw path applies to its bytes), the evaluation rate for an OpenFeature evaluation,
/// then the connection budget's held requests for an event stream. ``BundleRequestHandler`` asks it about each head and answers the refusals.
struct RequestGate: Sendable {
    /// The rule on `Host` and tokens.
    let admission: RequestAdmission
    /// The paths open without a token (`/healthz`, `/readyz`, the studio's files).
    let openRoutes: OpenRoutes
    /// Connections and held requests, per peer and in all.
    let budget: ConnectionBudget
    /// OpenFeature evaluations, per peer.
    let evaluations: EvaluationRate
    /// Who learns where the specs live, for the answers given before the router.
    let places: PlaceDisclosure

    /// What happens to `head`.
    enum Outcome {
        /// Answer it; `authenticated` tells whether it carried a token the daemon requires.
        case admitted(authenticated: Bool)
        /// Answer it with this problem, and close the connection after it if `closing`.
        case refused(Problem, closing: Bool)
    }

    /// The verdict on `head` from `peer`: by ``RequestAdmission``, then, for an OpenFeature
    /// evaluation, by the peer's ``EvaluationRate``.
    func admit(_ head: HTTPRequest, from peer: String) -> Outcome {
        // HTTPTypes moves the first `Host` into `authority`; any other stays a field.
        let host = head.headerFields[values: Self.host].isEmpty ? head.authority : nil
        let path = head.path.map { $0.prefix { $0 != "?" } } ?? ""
        // A CORS preflight (OPTIONS) never carries credentials, and its answer holds no data: the
        // methods and fields a route takes. The request it clears still needs the token.
        let verdict = admission.decide(
            host: host, authorization: Self.authorization(of: head, path: path),
            needsToken: head.method != .options && !openRoutes.contains(path))
        switch verdict {
        case .admitted(let authenticated):
            if head.method == .post, Self.isOFREPEvaluation(path), !evaluations.take(peer) {
                return .refused(.tooManyEvaluations, closing: false)
            }
            return .admitted(authenticated: authenticated)
        case .badHost: return .refused(.badHost, closing: true)
        case .misdirected: return .refused(.misdirected, closing: false)
        case .unauthorized: return .refused(.readUnauthorized, closing: false)
        }
    }

    /// The request's `Authorization`; for OpenFeature's remote evaluation protocol, whose
    /// providers send a key either way, an `X-API-Key` stands for `Authorization: Bearer KEY`.
    static func authorization(of head: HTTPRequest, path: Substring) -> String? {
        if let authorization = head.headerFields[.authorization] { return authorization }
        guard isOFREP(path), let key = head.headerFields[apiKey] else { return nil }
        return "Bearer " + key
    }

    /// Whether `path` (without its query) is a route of OpenFeature's remote evaluation protocol,
    /// of any environment.
    static func isOFREP(_ path: some StringProtocol) -> Bool {
        EnvironmentPath.split(path).path.hasPrefix("/ofrep/")
    }

    /// Whether `path` (without its query) is an OpenFeature evaluation, single or bulk, of any
    /// environment.
    static func isOFREPEvaluation(_ path: some StringProtocol) -> Bool {
        EnvironmentPath.split(path).path.hasPrefix(DaemonRoutes.ofrepEvaluatePath)
    }

    /// Whether `head` opens an event stream, which holds its connection for as long as it lasts.
    static func opensEventStream(_ head: HTTPRequest) -> Bool {
        head.method == .get
            && head.path.map { eventStreamRoutes.contains(EnvironmentPath.split($0.prefix { $0 != "?" }).path) } == true
    }

    /// The event streams' routes, as the default environment's paths.
    private static let eventStreamRoutes: Set<String> = ["/v1/events", DaemonRoutes.ofrepEventsPath]
    private static let host = HTTPFields.Element.Name("Host")!
    private static let apiKey = HTTPFields.Element.Name("X-API-Key")!
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

    /// An OpenFeature evaluation beyond the peer's ``EvaluationRate``: OFREP's 429, with
    /// `Retry-After` in seconds, which its providers wait out before they evaluate again. The
    /// peer's bucket holds an evaluation again within a second.
    static let tooManyEvaluations = Problem(
        kind: .tooManyEvaluations,
        detail:
            "this address asked for more OpenFeature evaluations a second than the daemon answers one address (--max-evaluations-per-peer); retry after a second",
        headers: [.retryAfter: "1"])
}
