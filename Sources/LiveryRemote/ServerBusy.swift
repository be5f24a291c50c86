import AsyncHTTPClient
import NIOHTTP1

/// A server shedding load: `503 Service Unavailable` or `429 Too Many Requests` with
/// `Retry-After` in seconds, as the daemon answers a held request beyond its limits. The server
/// is up and said when to come back, so the client waits that long (at most the backoff's cap)
/// instead of counting a failure: its backoff does not grow and it reports no error.
struct ServerBusy: Error {
    /// How long the server asked the client to wait.
    var retryAfter: Duration
    /// The answer, for the log.
    var error: RemoteError

    /// The shedding `response` carries, or `nil` when it is another failure: another status, or
    /// no `Retry-After` in seconds (an HTTP date, a bad field).
    init?(_ response: HTTPClientResponse, error: RemoteError) {
        guard [429, 503].contains(response.status.code),
            let field = response.headers.first(name: "Retry-After"),
            let seconds = UInt32(field)
        else { return nil }
        retryAfter = .seconds(seconds)
        self.error = error
    }
}
