import Hummingbird
import HummingbirdCore
import NIOCore

/// What a `GET` or `HEAD` of the bundle asks, read from its head by whichever path reads it
/// (the raw bytes, the event-loop handler, the router): the input of ``BundleDecision``.
package struct BundleQuery: Sendable {
    /// `?wait=`, as the request gave it.
    package enum Wait: Sendable, Equatable {
        /// No `wait=`: answer at once.
        case none
        /// Hold the request this long while the client has the current bundle.
        case duration(Duration)
        /// A `wait=` that is not a duration: 400, whatever else the request says.
        case invalid(String)
    }

    /// `HEAD` answers with exactly the fields of `GET`, and no body.
    package var isHead: Bool
    /// `If-None-Match`.
    package var condition: EntityTagCondition?
    /// `?wait=`.
    package var wait: Wait
    /// `Accept-Encoding` accepts gzip.
    package var acceptsGzip: Bool

    /// Creates a query.
    package init(isHead: Bool = false, condition: EntityTagCondition? = nil, wait: Wait = .none, acceptsGzip: Bool = false) {
        self.isHead = isHead
        self.condition = condition
        self.wait = wait
        self.acceptsGzip = acceptsGzip
    }

    /// Reads a request for the bundle: `nil` unless it is a `GET` or `HEAD` of `path`
    /// (`/v1/spec`, with or without a query).
    package init?(_ head: HTTPRequest, path: String = "/v1/spec") {
        guard head.method == .get || head.method == .head, let target = head.path else { return nil }
        var wait = Wait.none
        if target != path {
            guard target.hasPrefix(path + "?") else { return nil }
            if let text = URI(target).queryParameters["wait"] {
                wait = WaitDuration.parse(text).map(Wait.duration) ?? .invalid(String(text))
            }
        }
        self.init(
            isHead: head.method == .head,
            condition: EntityTagCondition(headerValues: head.headerFields[values: .ifNoneMatch]),
            wait: wait,
            acceptsGzip: AcceptEncoding.acceptsGzip(headerValues: head.headerFields[values: .acceptEncoding]))
    }
}
