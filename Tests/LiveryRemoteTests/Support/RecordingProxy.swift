import AsyncHTTPClient
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import NIOHTTP1
import Synchronization

/// A plain reverse proxy in front of one server (a real daemon), for GET requests with whole
/// bodies (long-polls, not event streams). It records each request's path, the status and
/// ETag of the answer, and its `Livery-Client` header, so tests see what reached the server.
final class RecordingProxy: Sendable {
    /// One request that went through.
    struct Seen: Sendable {
        var path: String
        var status: Int
        var etag: String?
        var client: String?
        /// The query, `nil` when there is none.
        var query: String? = nil
        /// The answer's `Livery-Round`, if any.
        var round: String? = nil
    }

    private final class Log: Sendable {
        let seen = Mutex<[Seen]>([])
    }

    /// The request headers passed on; others (Host, Connection…) are the proxy's own.
    private static let forwarded: Set<String> = ["if-none-match", "last-event-id", "livery-client"]

    let port: Int
    private let log: Log
    private let client: HTTPClient
    private let task: Task<Void, any Error>

    var url: URL { URL(string: "http://127.0.0.1:\(port)")! }
    /// Every request so far.
    var seen: [Seen] { log.seen.withLock { $0 } }

    static func start(upstream: URL) async throws -> RecordingProxy {
        let log = Log()
        let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup)
        let router = Router()
        router.get("**") { request, _ -> Response in
            var outgoing = HTTPClientRequest(url: upstream.absoluteString + request.uri.description)
            for field in request.headers where forwarded.contains(field.name.canonicalName) {
                outgoing.headers.add(name: field.name.rawName, value: field.value)
            }
            let answer = try await client.execute(outgoing, timeout: .seconds(60))
            let body = try await answer.body.collect(upTo: 1 << 22)
            let etag = answer.headers.first(name: "ETag")
            let header = request.headers.first { $0.name.canonicalName == "livery-client" }?.value
            log.seen.withLock {
                $0.append(
                    Seen(
                        path: request.uri.path, status: Int(answer.status.code), etag: etag, client: header,
                        query: request.uri.query, round: answer.headers.first(name: "Livery-Round")))
            }
            var response = Response(
                status: HTTPResponse.Status(code: Int(answer.status.code)), body: .init(byteBuffer: body))
            if let etag { response.headers[.eTag] = etag }
            if let type = answer.headers.first(name: "Content-Type") { response.headers[.contentType] = type }
            if let round = answer.headers.first(name: "Livery-Round") {
                response.headers[HTTPField.Name("Livery-Round")!] = round
            }
            return response
        }
        do {
            let (port, task) = try await LoopbackServer.start(router, label: "recording proxy")
            return RecordingProxy(port: port, log: log, client: client, task: task)
        } catch {
            try await client.shutdown()
            throw error
        }
    }

    private init(port: Int, log: Log, client: HTTPClient, task: Task<Void, any Error>) {
        self.port = port
        self.log = log
        self.client = client
        self.task = task
    }

    func stop() async throws {
        task.cancel()
        _ = await task.result
        try await client.shutdown()
    }
}
