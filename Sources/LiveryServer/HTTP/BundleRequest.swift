import Hummingbird
import HummingbirdCore
import NIOCore

/// A `GET /v1/spec` that ``BundleRequestHandler`` answers, as read from its head.
struct BundleRequest {
    /// The head, kept to hand the request to the router after all.
    let head: HTTPRequest
    /// `If-None-Match`.
    let condition: EntityTagCondition?
    /// `?wait=`: how long to hold the request while the client has the current bundle.
    let wait: Duration?
    /// `Connection: close`: close once answered.
    let closesConnection: Bool
    let start: ContinuousClock.Instant
    /// The end of the request was read.
    var isRead = false
    /// The long-poll's place in the hub, while it waits.
    var waiter: LongPollWaiter?
    /// When the long-poll gives up.
    var timer: Scheduled<Void>?

    /// `nil` unless `head` is a `GET /v1/spec` within `limits` whose `wait=`, if any, parses.
    init?(_ head: HTTPRequest, limits: RequestHeadLimits) {
        guard head.method == .get, let target = head.path else { return nil }
        var wait: Duration?
        if target != "/v1/spec" {
            guard target.hasPrefix("/v1/spec?") else { return nil }
            if let text = URI(target).queryParameters["wait"] {
                guard let parsed = WaitDuration.parse(text) else { return nil }
                wait = parsed
            }
        }
        guard limits.problem(with: head) == nil else { return nil }
        self.head = head
        self.condition = EntityTagCondition(headerValues: head.headerFields[values: .ifNoneMatch])
        self.wait = wait
        self.closesConnection = head.headerFields[values: .connection].contains { line in
            line.split(separator: ",").contains { String($0).trimmingSpaces.lowercased() == "close" }
        }
        self.start = .now
    }
}
