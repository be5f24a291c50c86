import Foundation
import HTTPTypes
import Hummingbird
import LiveryTestSupport
import Logging
import NIOCore
import Synchronization

/// A real HTTP server on a loopback port 0 that serves the documents of remote includes the
/// tests set up (or stands in for another server's answers, to GET and POST alike), and records
/// every request it gets (so a test can prove one was never made).
final class IncludeServer: Sendable {
    /// What one path answers.
    struct Answer: Sendable {
        var status = 200
        var body = ""
        var headers: [String: String] = [:]
        /// Send the body chunked, without `Content-Length`.
        var chunked = false
    }

    /// One request as the server saw it.
    struct Request: Sendable {
        var path: String
        var ifNoneMatch: String?
    }

    private let answers = Mutex<[String: Answer]>([:])
    private let seen = Mutex<[Request]>([])
    private let task: Mutex<Task<Void, any Error>?> = Mutex(nil)
    private let boundPort = Mutex(0)

    /// Every request so far.
    var requests: [Request] { seen.withLock { $0 } }

    /// `http://127.0.0.1:PORT`.
    var base: String { "http://127.0.0.1:\(boundPort.withLock { $0 })" }

    /// The port it listens on.
    var port: Int { boundPort.withLock { $0 } }

    /// Makes `path` answer `answer`; a path without an answer gets 404.
    func serve(_ path: String, _ answer: Answer) {
        answers.withLock { $0[path] = answer }
    }

    /// Serves `body` with an `ETag` (its length and a hash) and answers `If-None-Match` with 304.
    func serve(_ path: String, document body: String, contentType: String = "application/yaml") {
        serve(
            path,
            Answer(
                body: body, headers: ["Content-Type": contentType, "ETag": "\"\(body.utf8.count)-\(body.hashValue)\""]))
    }

    /// Starts a server, runs `body`, stops it.
    static func with<T>(_ body: (IncludeServer) async throws -> T) async throws -> T {
        let server = IncludeServer()
        try await server.start()
        let result: Result<T, any Error>
        do {
            result = .success(try await body(server))
        } catch {
            result = .failure(error)
        }
        await server.stop()
        return try result.get()
    }

    private func start() async throws {
        let router = Router()
        router.get("**") { request, _ -> Response in self.answer(request) }
        router.post("**") { request, _ -> Response in self.answer(request) }
        let (bound, boundContinuation) = AsyncStream.makeStream(of: Int.self)
        var logger = Logger(label: "include-server")
        logger.logLevel = .critical
        let app = Application(
            router: router,
            configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in
                boundContinuation.yield(channel.localAddress?.port ?? 0)
                boundContinuation.finish()
            },
            logger: logger)
        let running = GracefulServer.run(app, logger: logger)
        task.withLock { $0 = running }
        Task {
            _ = await running.result
            boundContinuation.finish()  // a server that cannot bind ends the wait below
        }
        var ports = bound.makeAsyncIterator()
        guard let port = await ports.next(), port > 0 else {
            throw HTTPTestError("the include server did not start")
        }
        boundPort.withLock { $0 = port }
    }

    private func stop() async {
        guard let running = task.withLock({ $0 }) else { return }
        running.cancel()
        _ = await running.result
    }

    private func answer(_ request: Hummingbird.Request) -> Response {
        let path = request.uri.path
        let ifNoneMatch = request.headers[.ifNoneMatch]
        seen.withLock { $0.append(Request(path: path, ifNoneMatch: ifNoneMatch)) }
        guard let answer = answers.withLock({ $0[path] }) else { return Response(status: .notFound) }
        var headers = HTTPFields()
        for (name, value) in answer.headers {
            if let field = HTTPField.Name(name) { headers[field] = value }
        }
        if let etag = answer.headers["ETag"], ifNoneMatch == etag {
            return Response(status: .notModified, headers: headers)
        }
        let buffer = ByteBuffer(string: answer.body)
        let body =
            answer.chunked
            ? ResponseBody { writer in
                // Two writes, so the length is unknown until the end.
                try await writer.write(buffer.getSlice(at: 0, length: buffer.readableBytes / 2) ?? ByteBuffer())
                try await writer.write(
                    buffer.getSlice(
                        at: buffer.readableBytes / 2, length: buffer.readableBytes - buffer.readableBytes / 2)
                        ?? ByteBuffer())
                try await writer.finish(nil)
            }
            : ResponseBody(byteBuffer: buffer)
        return Response(status: HTTPResponse.Status(code: answer.status), headers: headers, body: body)
    }
}
