import Foundation
import Hummingbird
@_spi(LiveryInternal) import LiveryHTTP
import LiveryServer
import NIOCore
import Synchronization

/// A stand-in for the daemon's cacheable version routes until `livery serve` has them:
/// `GET /v1/version?since=&wait=` and `GET /v1/spec/{etag}`, serving one JSON spec file of a
/// real folder (its bytes are the bundle, their content hash the ETag), read at each request.
/// It records every request with its parsed `Livery-Client` header.
final class VersionStandIn: Sendable {
    /// One request as the stand-in saw it.
    struct Seen: Sendable {
        var path: String
        var since: String?
        var status: Int
        var client: Result<LiveryClientHeader, ClientHeaderError>?
    }

    private final class Record: Sendable {
        struct State {
            var seen: [Seen] = []
            /// Every version served, by ETag without quotes: they never change.
            var versions: [String: Data] = [:]
        }

        let state = Mutex(State())
    }

    let file: URL
    let port: Int
    private let record: Record
    private let task: Task<Void, any Error>

    /// Every request so far.
    var seen: [Seen] { record.state.withLock { $0.seen } }

    var url: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// Starts serving `file` on a free loopback port.
    static func start(serving file: URL) async throws -> VersionStandIn {
        let state = Record()
        let router = Router()
        router.get("v1/version") { request, _ -> Response in
            let since = request.uri.queryParameters["since"].map(String.init)
            let wait = request.uri.queryParameters["wait"].flatMap { WaitDuration.parse($0) } ?? .zero
            var current = try Self.current(file, state: state)
            let deadline = ContinuousClock.now + wait
            while current.etag.opaque == since, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(50))
                current = try Self.current(file, state: state)
            }
            let changed = current.etag.opaque != since
            Self.note(request, since: since, status: changed ? 200 : 304, state: state)
            guard changed else { return Response(status: .notModified) }
            let answer = #"{"etag": "\"\#(current.etag.opaque)\""}"#
            return Response(
                status: .ok, headers: [.contentType: "application/json", .cacheControl: "public, max-age=1"],
                body: .init(byteBuffer: ByteBuffer(string: answer)))
        }
        router.get("v1/spec/:etag") { request, context -> Response in
            let etag = context.parameters.get("etag") ?? ""
            guard let body = state.state.withLock({ $0.versions[etag] }) else {
                Self.note(request, since: nil, status: 404, state: state)
                return Response(status: .notFound)
            }
            Self.note(request, since: nil, status: 200, state: state)
            return Response(
                status: .ok,
                headers: [
                    .eTag: EntityTag(opaque: etag).description, .contentType: "application/json",
                    .cacheControl: "public, max-age=31536000, immutable",
                ],
                body: .init(byteBuffer: ByteBuffer(bytes: body)))
        }
        let (port, task) = try await LoopbackServer.start(router, label: "version stand-in")
        return VersionStandIn(file: file, port: port, record: state, task: task)
    }

    private init(file: URL, port: Int, record: Record, task: Task<Void, any Error>) {
        self.file = file
        self.port = port
        self.record = record
        self.task = task
    }

    func stop() async {
        task.cancel()
        _ = await task.result
    }

    /// The file's bytes and tag, kept among the versions.
    private static func current(_ file: URL, state: Record) throws -> (body: Data, etag: EntityTag) {
        let body = try Data(contentsOf: file)
        let etag = EntityTag(of: body)
        state.state.withLock { $0.versions[etag.opaque] = body }
        return (body, etag)
    }

    private static func note(_ request: Request, since: String?, status: Int, state: Record) {
        let header = request.headers.first { $0.name.canonicalName == "livery-client" }?.value
        let client = header.map { value in
            Result { () throws(ClientHeaderError) in try LiveryClientHeader(fieldValue: value) }
        }
        let seen = Seen(path: request.uri.path, since: since, status: status, client: client)
        state.state.withLock { $0.seen.append(seen) }
    }
}
