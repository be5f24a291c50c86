import Hummingbird
@_spi(LiveryInternal) import LiveryHTTP

/// What every parsed request head passes before it is answered: ``RequestAdmission`` (the same
/// rule the raw path applies to its bytes), then the connection budget's held requests for an
/// event stream. ``BundleRequestHandler`` asks it about each head and answers the refusals.
/// The router's routes then pass the ``AccessRule`` with their scopes (``KeyAuthorization``).
struct RequestGate: Sendable {
    /// The rule on `Host`, and on keys for the bundle requests answered before the router.
    let admission: RequestAdmission
    /// Who may call what, for the problem a refused bundle request gets.
    let access: AccessRule
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

    /// The verdict on `head`, by ``RequestAdmission``; `isBundle` when it is a bundle read the
    /// daemon answers before the router, which must then carry a read key where reads need one.
    func admit(_ head: HTTPRequest, isBundle: Bool) -> Outcome {
        // HTTPTypes moves the first `Host` into `authority`; any other stays a field.
        let host = head.headerFields[values: Self.host].isEmpty ? head.authority : nil
        let path = head.path.map { $0.prefix { $0 != "?" } } ?? ""
        let verdict = admission.decide(
            host: host, authorization: Self.authorization(of: head, path: path), needsToken: isBundle)
        switch verdict {
        case .admitted(let authenticated): return .admitted(authenticated: authenticated)
        case .badHost: return .refused(.badHost, closing: true)
        case .misdirected: return .refused(.misdirected, closing: false)
        case .unauthorized:
            // A key the daemon knows, without `read` here, is told what it lacks, as on every route.
            let environment = access.environment(ofPath: path)
            switch access.decide(Self.authorization(of: head, path: path), scope: .read, environment: environment) {
            case .allowed: return .admitted(authenticated: true)
            case .forbidden(let scope, let environment, let key):
                return .refused(.missingScope(scope, environment: environment, key: key), closing: false)
            case .unauthorized:
                return .refused(
                    .unauthorized(scope: .read, environment: environment, readsNeedKey: true), closing: false)
            }
        }
    }

    /// The request's `Authorization`, the key every check reads (here and ``KeyAuthorization``);
    /// for OpenFeature's remote evaluation protocol, whose providers send a key either way, an
    /// `X-API-Key` stands for `Authorization: Bearer KEY`.
    static func authorization(of head: HTTPRequest, path: some StringProtocol) -> String? {
        if let authorization = head.headerFields[.authorization] { return authorization }
        guard isOFREP(path), let key = head.headerFields[apiKey] else { return nil }
        return "Bearer " + key
    }

    /// Whether `path` (without its query) is a route of OpenFeature's remote evaluation protocol,
    /// of any environment.
    static func isOFREP(_ path: some StringProtocol) -> Bool {
        EnvironmentPath.split(path).path.hasPrefix("/ofrep/")
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

    /// A held request (long-poll, event stream) beyond the connection budget.
    static let tooManyHeld = Problem(
        kind: .tooManyHeldRequests,
        detail:
            "the daemon holds as many long-polls and event streams as its limits allow (--max-held-requests, --max-held-requests-per-peer); retry later",
        headers: [.retryAfter: "5"])
}
