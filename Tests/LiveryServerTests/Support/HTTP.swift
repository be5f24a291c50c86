import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Synchronization

/// A tiny client for the daemon's endpoints over a real connection (AsyncHTTPClient).
struct HTTP: Sendable {
    struct Reply: Sendable {
        var status: Int
        var headers: HTTPHeaders
        var body: Data
        var text: String { String(decoding: body, as: UTF8.self) }
        func header(_ name: String) -> String? { headers.first(name: name) }
        func json() throws -> [String: Any] {
            guard let object = try JSONSerialization.jsonObject(with: body) as? [String: Any] else {
                throw HTTPTestError("body is not a JSON object: \(text)")
            }
            return object
        }
    }

    let base: String
    let token: String

    func get(_ path: String, headers: [(String, String)] = [], timeout: Duration = .seconds(10)) async throws -> Reply {
        try await send(.GET, path, headers: headers, timeout: timeout)
    }

    func put(
        _ path: String, _ body: String, token: String?? = .none, headers: [(String, String)] = []
    ) async throws -> Reply {
        try await send(.PUT, path, body: Data(body.utf8), headers: authorization(token) + headers)
    }

    func post(
        _ path: String, json: String, token: String?? = .none, headers: [(String, String)] = []
    ) async throws -> Reply {
        try await send(
            .POST, path, body: Data(json.utf8),
            headers: authorization(token) + [("Content-Type", "application/json")] + headers)
    }

    /// `POST /v1/specs` with `files` (nil removes) and `message`.
    func publish(
        _ files: [String: String?], message: String = "", headers: [(String, String)] = [], query: String = ""
    ) async throws -> Reply {
        var object: [String: Any] = [:]
        for (path, content) in files { object[path] = content.map { $0 as Any } ?? NSNull() }
        let body = try JSONSerialization.data(
            withJSONObject: ["files": object, "message": message], options: [.sortedKeys])
        return try await post("/v1/specs" + query, json: String(decoding: body, as: UTF8.self), headers: headers)
    }

    func delete(_ path: String, token: String?? = .none, headers: [(String, String)] = []) async throws -> Reply {
        try await send(.DELETE, path, headers: authorization(token) + headers)
    }

    /// `.none`: the right token; `.some(nil)`: no header; `.some(x)`: token `x`.
    private func authorization(_ token: String??) -> [(String, String)] {
        switch token {
        case .none: return [("Authorization", "Bearer \(self.token)")]
        case .some(.none): return []
        case .some(.some(let other)): return [("Authorization", "Bearer \(other)")]
        }
    }

    func send(
        _ method: HTTPMethod, _ path: String, body: Data? = nil, streamed: Bool = false,
        headers: [(String, String)] = [], timeout: Duration = .seconds(10)
    ) async throws -> Reply {
        var request = HTTPClientRequest(url: base + path)
        request.method = method
        // HTTPClient.shared asks for gzip and inflates it unseen; these tests read what the
        // daemon sends a plain client unless they ask for an encoding themselves.
        if !headers.contains(where: { $0.0.lowercased() == "accept-encoding" }) {
            request.headers.add(name: "Accept-Encoding", value: "identity")
        }
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let body {
            if streamed {
                // No Content-Length: the body goes out chunked, 64 KiB at a time.
                let chunks = stride(from: 0, to: body.count, by: 65536).map {
                    ByteBuffer(bytes: body[$0..<min($0 + 65536, body.count)])
                }
                request.body = .stream(AsyncStreamOfChunks(chunks: chunks), length: .unknown)
            } else {
                request.body = .bytes(ByteBuffer(bytes: body))
            }
        }
        let exchange = { @Sendable [request] in
            let response = try await HTTPClient.shared.execute(request, timeout: .init(timeout))
            let bytes = try await response.body.collect(upTo: 16 * 1024 * 1024)
            return Reply(
                status: Int(response.status.code), headers: response.headers, body: Data(bytes.readableBytesView))
        }
        // The client's timeout covers the answer's head, and under a whole parallel run one
        // exchange was seen never to end at all, holding the run: this bound holds whatever
        // the client does.
        return try await Self.giveUp(after: timeout + .seconds(5), "\(method) \(base)\(path)", exchange)
    }

    /// `operation`'s result, or an error once `limit` has passed, without waiting for an
    /// operation that does not end when it is cancelled (it is cancelled and left behind).
    static func giveUp<T: Sendable>(
        after limit: Duration, _ what: String, _ operation: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            let pending = Pending(continuation)
            let work = Task {
                do {
                    let value = try await operation()
                    pending.take()?.resume(returning: value)
                } catch {
                    pending.take()?.resume(throwing: error)
                }
            }
            Task {
                try? await Task.sleep(for: limit)
                guard let waiting = pending.take() else { return }
                work.cancel()
                waiting.resume(throwing: HTTPTestError("\(what): no answer within \(limit)"))
            }
        }
    }

    /// A continuation resumed once, by whichever of the work and the timer comes first.
    private final class Pending<T: Sendable>: Sendable {
        private let continuation: Mutex<CheckedContinuation<T, any Error>?>

        init(_ continuation: CheckedContinuation<T, any Error>) { self.continuation = Mutex(continuation) }

        func take() -> CheckedContinuation<T, any Error>? {
            continuation.withLock { stored in
                defer { stored = nil }
                return stored
            }
        }
    }
}

/// A finite async sequence of buffers, for chunked request bodies.
struct AsyncStreamOfChunks: AsyncSequence, Sendable {
    typealias Element = ByteBuffer
    let chunks: [ByteBuffer]
    struct AsyncIterator: AsyncIteratorProtocol {
        var remaining: ArraySlice<ByteBuffer>
        mutating func next() async -> ByteBuffer? { remaining.popFirst() }
    }
    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(remaining: chunks[...]) }
}

struct HTTPTestError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

extension TimeAmount {
    init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        self = .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
