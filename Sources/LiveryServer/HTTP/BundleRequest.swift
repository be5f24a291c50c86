import Hummingbird
import HummingbirdCore
import NIOCore

/// A request for the bundle that ``BundleRequestHandler`` answers, as read from its head.
struct BundleRequest {
    /// What it asks, for ``BundleDecision``.
    let query: BundleQuery
    /// The path, without its query, and the `Origin` header: what the CORS rule reads.
    let path: Substring
    let origin: String?
    /// `Connection: close`: close once answered.
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

    /// `nil` unless `head` is a `GET` or `HEAD` of `/v1/spec` within `limits` (the router
    /// answers heads over them).
    init?(_ head: HTTPRequest, limits: RequestHeadLimits) {
        guard let query = BundleQuery(head), limits.problem(with: head) == nil else { return nil }
        self.query = query
        self.path = head.path?.prefix { $0 != "?" } ?? ""
        self.origin = head.headerFields[.origin]
        self.closesConnection = head.headerFields[values: .connection].contains { line in
            line.split(separator: ",").contains { String($0).trimmingSpaces.lowercased() == "close" }
        }
        self.start = .now
    }
}
