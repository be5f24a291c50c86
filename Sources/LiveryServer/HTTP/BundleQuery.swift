package import Hummingbird
import HummingbirdCore
@_spi(LiveryInternal) import LiveryHTTP
import NIOCore

/// What a `GET` or `HEAD` of the bundle asks, read from its head by whichever path reads it
/// (the raw bytes, the event-loop handler, the router): the input of ``BundleDecision``.
package struct BundleQuery: Sendable {
    /// Which answer about the bundle the request asks for.
    package enum Resource: Sendable, Equatable {
        /// `/v1/spec`: the current bundle.
        case current
        /// `/v1/spec/{etag}`: the bundle of one version, named by its tag without quotes.
        case version(String)
        /// `/v1/version?since={etag}&round=R`: the current version's tag once it differs from
        /// `since`; `round` (see ``LiveryHTTP/SignalRound``) is where a wait without a change
        /// ends, `nil` when it is absent or not an integer.
        case versionSignal(since: String?, round: Int64? = nil)

    }

    /// Which form of the bundle `.current` and `.version` ask for.
    package typealias Form = BundleForm

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
    /// The path asked for.
    package var resource: Resource
    /// The form asked for.
    package var form: Form
    /// The environment named in the path (``LiveryHTTP/EnvironmentPath``); `nil` for the default one.
    package var environment: String?

    /// The route the request is counted under in the metrics.
    package var route: String {
        let pattern =
            switch resource {
            case .current: BundlePath.current(form).pattern
            case .version(let tag): BundlePath.version(form, tag: tag).pattern
            case .versionSignal: BundlePath.versionSignal.pattern
            }
        return environment == nil ? pattern : EnvironmentPath.path(pattern, environment: nil)
    }

    /// Creates a query.
    package init(
        isHead: Bool = false, condition: EntityTagCondition? = nil, wait: Wait = .none, acceptsGzip: Bool = false,
        resource: Resource = .current, form: Form = .bundle, environment: String? = nil
    ) {
        self.isHead = isHead
        self.condition = condition
        self.wait = wait
        self.acceptsGzip = acceptsGzip
        self.resource = resource
        self.form = form
        self.environment = environment
    }

    /// Reads a request for the bundle: `nil` unless it is a `GET` or `HEAD` of `/v1/spec`,
    /// `/v1/spec/{etag}`, `/v1/css`, `/v1/css/{etag}` or `/v1/version`, with or without a query.
    package init?(_ head: HTTPRequest) {
        guard head.method == .get || head.method == .head, let target = head.path else { return nil }
        let parameters = URI(target).queryParameters
        let resource: Resource
        var form = Form.bundle
        let (environment, path) = EnvironmentPath.split(target.prefix { $0 != "?" })
        switch BundlePath(path: path) {
        case .current(let asked):
            (resource, form) = (.current, asked)
        case .version(let asked, let tag):
            (resource, form) = (.version(tag), asked)
        case .versionSignal:
            resource = .versionSignal(
                since: parameters["since"].map(String.init),
                round: parameters[Substring(SignalRound.parameterName)].flatMap { Int64(String($0)) })
        case nil:
            return nil
        }
        var wait = Wait.none
        if let text = parameters["wait"] {
            wait = WaitDuration.parse(text).map(Wait.duration) ?? .invalid(String(text))
        }
        self.init(
            isHead: head.method == .head,
            condition: EntityTagCondition(headerValues: head.headerFields[values: .ifNoneMatch]),
            wait: wait,
            acceptsGzip: AcceptEncoding.acceptsGzip(headerValues: head.headerFields[values: .acceptEncoding]),
            resource: resource, form: form, environment: environment.map(String.init))
    }
}
