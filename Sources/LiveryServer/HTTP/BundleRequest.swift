import Hummingbird
import HummingbirdCore
import NIOCore

/// A request that ``BundleRequestHandler`` answers itself, as read from its head: one for the
/// bundle, or one it refuses (``RequestGate``).
struct BundleRequest {
    /// What the answer is made of.
    enum Kind {
        /// A request for the bundle, for ``BundleDecision``.
        case bundle(BundleQuery)
        /// A refusal, answered as it is.
        case refusal(BundleResponse)
    }

    let kind: Kind
    /// The route and method it is counted under in the metrics.
    let route: String
    let method: String
    /// The path, without its query, and the `Origin` header: what the CORS rule reads.
    let path: Substring
    let origin: String?
    /// `Connection: close`, or a refusal that ends the connection: close once answered.
    let closesConnection: Bool
    let start: ContinuousClock.Instant
    /// The end of the request was read.
    var isRead = false
    /// Its answer is under way: sent, or waiting in the hub.
    var isStarted = false
    /// The long-poll's place in the hub, while it waits.
    var waiter: LongPollWaiter?
    /// When the long-poll gives up.
    var timer: Scheduled<Void>?
    /// The long-poll holds one of the connection budget's held requests.
    var holdsBudget = false
    /// It bears the push token, so its answer may say where the specs live (``PlaceDisclosure``).
    var disclosesPlaces = false
    /// The hub of the environment a request for the bundle addresses; `nil` for a refusal.
    var hub: BundleHub?
    /// That environment's name, for the metrics; empty for a refusal.
    var environment = ""

    /// `nil` unless `head` is a `GET` or `HEAD` of `/v1/spec` within `limits` (the router
    /// answers heads over them).
    init?(_ head: HTTPRequest, limits: RequestHeadLimits) {
        guard let query = BundleQuery(head), limits.problem(with: head) == nil else { return nil }
        self.kind = .bundle(query)
        self.route = query.route
        self.method = query.isHead ? "HEAD" : "GET"
        self.path = Self.path(of: head)
        self.origin = head.headerFields[.origin]
        self.closesConnection = Self.asksToClose(head)
        self.start = .now
    }

    /// `head` refused with `problem`; the connection closes after the answer if `closing`.
    init(_ head: HTTPRequest, refusedWith problem: Problem, closing: Bool) {
        self.init(
            method: head.method, refusedWith: problem, closing: closing || Self.asksToClose(head),
            path: Self.path(of: head), origin: head.headerFields[.origin])
    }

    /// A request of `method` for `path` from `origin` refused with `problem`; the connection
    /// closes after the answer if `closing`.
    init(
        method: HTTPRequest.Method, refusedWith problem: Problem, closing: Bool, path: Substring = "",
        origin: String? = nil
    ) {
        var fields = problem.fields
        let body = JSONBody.encode(problem)
        fields[.contentLength] = String(body.readableBytes)
        if closing { fields[.connection] = "close" }
        self.kind = .refusal(BundleResponse(status: problem.status, fields: fields, body: method == .head ? nil : body))
        self.route = "(refused)"
        self.method = method.rawValue
        self.path = path
        self.origin = origin
        self.closesConnection = closing
        self.start = .now
    }

    static func path(of head: HTTPRequest) -> Substring {
        head.path?.prefix { $0 != "?" } ?? ""
    }

    private static func asksToClose(_ head: HTTPRequest) -> Bool {
        head.headerFields[values: .connection].contains { line in
            line.split(separator: ",").contains { String($0).trimmingSpaces.lowercased() == "close" }
        }
    }
}
