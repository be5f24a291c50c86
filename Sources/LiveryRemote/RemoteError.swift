import AsyncHTTPClient
import NIOCore

/// A failure to fetch a spec: the server was unreachable, too slow, or answered with an error.
///
/// Its description reads `url: error: message`, like a `SpecError` names its file.
public struct RemoteError: Error, Sendable, CustomStringConvertible {
    /// The kind of a ``RemoteError``.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The code's name.
        public let name: String

        private init(_ name: String) { self.name = name }

        /// No connection could be made (refused, or not made within the connect timeout), or it
        /// broke before a complete response arrived.
        public static let unreachable = Code("unreachable")
        /// The server was reached but sent no data within the read timeout or the deadline.
        public static let timedOut = Code("timedOut")
        /// The server answered with a status other than 200 (or 304 to a conditional request).
        public static let status = Code("status")
        /// The response is not what the mode expects (an event stream of another content type).
        public static let invalidResponse = Code("invalidResponse")
        /// The body is larger than `ReaderLimits.maxBytes`.
        public static let tooLarge = Code("tooLarge")

        /// The code's name.
        public var description: String { name }
    }

    /// What kind of failure this is.
    public var code: Code
    /// The URL requested.
    public var url: String
    /// The HTTP status, for ``Code/status``.
    public var status: Int?
    /// What went wrong, in one sentence without a trailing period.
    public var message: String
    /// The error the HTTP client reported, if any.
    public var underlying: (any Error)?

    /// Creates an error.
    public init(_ code: Code, url: String, status: Int? = nil, _ message: String, underlying: (any Error)? = nil) {
        self.code = code
        self.url = url
        self.status = status
        self.message = message
        self.underlying = underlying
    }

    /// `url: error: message`.
    public var description: String { "\(url): error: \(message)" }

    /// Classifies what the HTTP client threw while fetching `url`.
    static func wrapping(_ error: any Error, url: String) -> RemoteError {
        if let error = error as? RemoteError { return error }
        if error is NIOTooManyBytesError {
            return RemoteError(.tooLarge, url: url, "the response body is larger than the limit", underlying: error)
        }
        if let error = error as? HTTPClientError {
            switch error {
            case .readTimeout:
                return RemoteError(.timedOut, url: url, "no data within the read timeout", underlying: error)
            case .connectTimeout:
                // The client retries a refused connection until this timeout, so a server that
                // is down ends here as often as in "connection refused": both are unreachable.
                return RemoteError(
                    .unreachable, url: url, "could not connect within the connect timeout", underlying: error)
            case .deadlineExceeded:
                return RemoteError(.timedOut, url: url, "timed out: \(error)", underlying: error)
            default:
                break
            }
        }
        return RemoteError(.unreachable, url: url, "request failed: \(error)", underlying: error)
    }
}
