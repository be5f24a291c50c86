/// Which web origins may call the daemon from a browser (`livery serve --allow-origin`), and
/// the one rule for what an answer says about it (the CORS protocol, Fetch standard §3.2).
///
/// Only the routes a page needs answer an allowed origin: the read routes `/v1/css`,
/// `/v1/css/{etag}`, `/v1/livery.js`, `/v1/version`, `/v1/events`, `/v1/spec` and
/// `/v1/spec/{etag}`, with `GET` or `HEAD`, and the browser client's report,
/// `POST /v1/reports`, which carries nothing a read route's `Livery-Client`
/// header could not. Write routes never do, whatever is allowed, so a page on an allowed origin
/// still cannot push.
///
/// One route is granted to any origin, with or without the option: Tokens Studio for Figma's
/// storage (`/v1/tokens-studio`). The plugin runs in a frame of another origin (`null`), sends
/// `Content-Type: application/json` and the headers its storage is configured with, and reads an
/// answer only with `Access-Control-Allow-Origin`. The grant sends no credentials; its writes
/// still need the push token, which a page cannot know. Apart from it, with no origin allowed
/// (``none``) no answer carries a CORS field.
///
/// Every path of the daemon that answers a request asks the policy for the answer's fields (and
/// for an `OPTIONS` answer's), so the rule is written once; a program only configures it.
public struct CrossOriginPolicy: Sendable, Hashable {
    /// The allowed origins as a browser serialises them (`https://app.example.com`,
    /// `http://localhost:8080`), or `*` for any.
    public let origins: Set<String>

    /// No origin: no CORS fields anywhere.
    public static let none = CrossOriginPolicy(checked: [])

    /// The request headers a preflight may ask for, on page routes only: the browser client
    /// reports what it applied in the first, like the Swift client, sends the read token
    /// (`--read-token-file`) in the second, and resumes the event stream from the version it
    /// applied with the third. The push token never crosses: no write route is granted to
    /// another origin.
    package static let allowedRequestHeaders = [LiveryClientHeader.fieldName, "Authorization", "Last-Event-ID"]
    /// The answer fields a page's script may read: the version and the signal's next round.
    package static let exposedHeaders = ["ETag", SignalRound.fieldName]
    /// How long a browser may reuse a preflight's answer, in seconds.
    package static let preflightMaxAge = 600
    /// The route a client sends a refusal or problem report to at once (`POST`).
    package static let reportsPath = "/v1/reports"
    /// Tokens Studio's "Generic Versioned Storage" route, open to any origin for `GET`, `HEAD`,
    /// `PUT` and `POST` with whatever request headers the plugin names.
    package static let tokensStudioPath = "/v1/tokens-studio"
    /// The methods ``tokensStudioPath`` grants in a preflight: a pull, a push and a create.
    static let tokensStudioMethods = "GET, PUT, POST"

    private init(checked origins: Set<String>) { self.origins = origins }

    /// The policy allowing `origins`, each `scheme://host[:port]` (`http` or `https`, no path,
    /// query or user) or `*`.
    ///
    /// - Throws: ``CrossOriginPolicyError`` naming the first origin that is not one.
    public init(allowing origins: [String]) throws(CrossOriginPolicyError) {
        var checked: Set<String> = []
        for origin in origins {
            checked.insert(try Self.serialised(origin))
        }
        self.init(checked: checked)
    }

    /// Whether any origin is allowed for the read routes (Tokens Studio's route is granted
    /// either way).
    public var isEnabled: Bool { !origins.isEmpty }

    /// Whether `method` on `path` (without its query) is a read route a page may call from
    /// another origin, in any environment.
    package static func isReadRoute(method: String, path: String) -> Bool {
        guard method == "GET" || method == "HEAD" else { return false }
        let path = EnvironmentPath.split(path).path
        return BundlePath(path: path) != nil || path == "/v1/livery.js" || path == "/v1/events"
    }

    /// Whether `method` on `path` (without its query) is a route a page may call from another
    /// origin: a read route, or `POST` ``reportsPath``.
    package static func isPageRoute(method: String, path: String) -> Bool {
        isReadRoute(method: method, path: path)
            || (method == "POST" && EnvironmentPath.split(path).path == reportsPath)
    }

    /// The fields to add to the answer to a `method` request for `path` from `origin` (its
    /// `Origin` header, nil without one): for ``tokensStudioPath`` any origin's grant; nothing
    /// when no origin is allowed or the route is not a page route (``isPageRoute(method:path:)``);
    /// else `Vary: Origin` (the answer depends on it, for caches), and for an allowed origin
    /// `Access-Control-Allow-Origin` and `Access-Control-Expose-Headers`.
    package func answerFields(origin: String?, method: String, path: String) -> [(name: String, value: String)] {
        let path = EnvironmentPath.split(path).path
        if path == Self.tokensStudioPath {
            return [("Access-Control-Allow-Origin", "*"), ("Access-Control-Expose-Headers", "ETag")]
        }
        guard isEnabled, Self.isPageRoute(method: method, path: path) else { return [] }
        guard let allowed = allowedValue(for: origin) else { return [("Vary", "Origin")] }
        return [
            ("Access-Control-Allow-Origin", allowed),
            ("Access-Control-Expose-Headers", Self.exposedHeaders.joined(separator: ", ")),
            ("Vary", "Origin"),
        ]
    }

    /// The fields of the answer to an `OPTIONS` preflight for `path`: for ``tokensStudioPath``
    /// any origin's grant of the headers it asks for; else the grant when `origin`
    /// is allowed, the route is a page route for `requestMethod` (`Access-Control-Request-Method`)
    /// and every header in `requestHeaders` (`Access-Control-Request-Headers`) is one the
    /// client may send; else only `Vary: Origin` (or nothing, with no origin allowed), which a
    /// browser reads as a refusal.
    package func preflightFields(
        origin: String?, requestMethod: String?, requestHeaders: String?, path: String
    ) -> [(name: String, value: String)] {
        let path = EnvironmentPath.split(path).path
        if path == Self.tokensStudioPath {
            return [
                ("Access-Control-Allow-Origin", "*"),
                ("Access-Control-Allow-Methods", Self.tokensStudioMethods),
                (
                    "Access-Control-Allow-Headers",
                    requestHeaders.flatMap { $0.isEmpty ? nil : $0 } ?? "Authorization, Content-Type"
                ),
                ("Access-Control-Max-Age", String(Self.preflightMaxAge)),
            ]
        }
        guard isEnabled else { return [] }
        guard let requestMethod, Self.isPageRoute(method: requestMethod, path: path),
            let allowed = allowedValue(for: origin)
        else { return [("Vary", "Origin")] }
        let asked = (requestHeaders ?? "").split(separator: ",").map { String($0).trimmingSpaces.lowercased() }
        let permitted = Set(Self.allowedRequestHeaders.map { $0.lowercased() })
        guard asked.allSatisfy({ $0.isEmpty || permitted.contains($0) }) else { return [("Vary", "Origin")] }
        return [
            ("Access-Control-Allow-Origin", allowed),
            ("Access-Control-Allow-Methods", path == Self.reportsPath ? "POST" : "GET, HEAD"),
            ("Access-Control-Allow-Headers", Self.allowedRequestHeaders.joined(separator: ", ")),
            ("Access-Control-Max-Age", String(Self.preflightMaxAge)),
            ("Vary", "Origin"),
        ]
    }

    /// The `Access-Control-Allow-Origin` value for `origin`, nil when it is not allowed.
    private func allowedValue(for origin: String?) -> String? {
        if origins.contains("*") { return "*" }
        guard let origin, origins.contains(origin) else { return nil }
        return origin
    }

    /// `origin` as a browser sends it in `Origin`: scheme and host in lowercase, no trailing `/`.
    private static func serialised(_ origin: String) throws(CrossOriginPolicyError) -> String {
        if origin == "*" { return origin }
        var text = origin.lowercased()
        if text.hasSuffix("/") { text.removeLast() }
        let expected = "expected scheme://host[:port] with http or https, such as https://app.example.com, or *"
        guard let schemeEnd = text.firstRange(of: "://") else { throw CrossOriginPolicyError(origin: origin, expected) }
        let scheme = text[..<schemeEnd.lowerBound]
        let authority = text[schemeEnd.upperBound...]
        guard scheme == "http" || scheme == "https" else { throw CrossOriginPolicyError(origin: origin, expected) }
        let forbidden: Set<Character> = ["/", "?", "#", "@", " ", "\\", "*"]
        guard !authority.isEmpty, !authority.contains(where: { forbidden.contains($0) || $0.isNewline }),
            authority.allSatisfy({ $0.isASCII && !$0.isWhitespace })
        else { throw CrossOriginPolicyError(origin: origin, expected) }
        return text
    }
}

/// An `--allow-origin` value that is not an origin.
public struct CrossOriginPolicyError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The value as given.
    public let origin: String
    /// What was expected.
    public let expected: String

    init(origin: String, _ expected: String) {
        self.origin = origin
        self.expected = expected
    }

    /// `'ftp://x' is not an origin: expected …`.
    public var description: String { "'\(origin)' is not an origin: \(expected)" }
}
