import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Synchronization

extension EtcdClient {
    /// What a watch reports.
    public enum WatchMessage: Sendable {
        /// The watch is in place: changes after the start revision follow.
        case created
        /// The changes of one revision (etcd never splits a revision across messages).
        case changes([WatchEvent], revision: Int64)
        /// etcd compacted the revisions the watch would start from; it is over. Read again at
        /// `compactRevision` or later and watch from there.
        case compacted(compactRevision: Int64)
    }

    /// One changed key.
    public struct WatchEvent: Sendable {
        /// Whether the key was removed (`value` is then empty).
        public var isDelete: Bool
        /// The key and, for a put, its new value.
        public var keyValue: KeyValue
    }

    /// How a watch ended without an error.
    public enum WatchEnd: Sendable, Equatable {
        /// `receive` returned `false`, or the task was cancelled.
        case stopped
        /// etcd ended the stream.
        case closed
        /// The watch was in place but nothing arrived for the silence limit: the stream may be
        /// cut off without being closed, so the caller watches again (which proves the way to
        /// etcd, or fails).
        case silent
    }

    /// Watches `[key, rangeEnd)` from `startRevision`, calling `receive` for each message, until
    /// etcd closes the stream, `receive` returns `false`, or nothing at all arrives for
    /// `silenceLimit`. Starts at the endpoint that last answered, so that a member that went
    /// silent is not waited for again at every new watch. Asks etcd for progress notifications,
    /// which keep a quiet watch busy when the server sends them often enough. Throws if no endpoint answers with a watch within
    /// `silenceLimit` or the connection breaks; the caller watches again from the revision after
    /// the last one it received, and misses nothing.
    public func watch(
        key: String, rangeEnd: String, from startRevision: Int64, silenceLimit: Duration,
        receive: (WatchMessage) async -> Bool
    ) async throws(EtcdError) -> WatchEnd {
        let create = EtcdWireWatchRequest(
            create_request: .init(
                key: key.etcdBase64, range_end: rangeEnd.etcdBase64, start_revision: String(startRevision),
                progress_notify: true))
        let body: Data
        do {
            body = try JSONEncoder().encode(create)
        } catch {
            throw EtcdError(.protocolError, "cannot encode a watch request: \(error)")
        }
        let limit = TimeAmount.nanoseconds(
            silenceLimit.components.seconds * 1_000_000_000 + silenceLimit.components.attoseconds / 1_000_000_000)
        var failures: [String] = []
        let sent = try await authorization()
        let first = preferred.withLock { $0 }
        for offset in 0..<endpoints.count {
            let index = (first + offset) % endpoints.count
            let endpoint = endpoints[index]
            var request = HTTPClientRequest(url: endpoint.absoluteString + "/v3/watch")
            request.method = .POST
            request.headers.add(name: "Content-Type", value: "application/json")
            if let sent { request.headers.add(name: "Authorization", value: sent) }
            request.body = .bytes(ByteBuffer(bytes: body))
            let response: HTTPClientResponse
            do {
                response = try await http.execute(request, deadline: .now() + limit)
            } catch {
                failures.append("\(endpoint.absoluteString): \(error)")
                continue
            }
            guard response.status == .ok else {
                // A refused token is replaced by the next watch, which the follower makes again.
                forgetToken(ifRefused: response.status.code, sent: sent)
                failures.append("\(endpoint.absoluteString) answered \(response.status.code)")
                continue
            }
            preferred.withLock { $0 = index }
            return try await follow(response, at: endpoint, silenceLimit: silenceLimit, receive: receive)
        }
        throw EtcdError(.unavailable, "no etcd endpoint accepted a watch: " + failures.joined(separator: "; "))
    }

    /// Reads the watch's lines on a child task while a second one watches the clock; the first
    /// silence of `silenceLimit` ends the stream.
    private func follow(
        _ response: HTTPClientResponse, at endpoint: URL, silenceLimit: Duration,
        receive: (WatchMessage) async -> Bool
    ) async throws(EtcdError) -> WatchEnd {
        let (lines, sink) = AsyncThrowingStream<Data, any Error>.makeStream()
        let heard = LastHeard()
        var created = false
        do {
            return try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    do {
                        try await Self.readLines(of: response) { line in
                            heard.touch()
                            sink.yield(line)
                        }
                        sink.finish()
                    } catch {
                        sink.finish(throwing: error)
                    }
                }
                group.addTask {
                    while true {
                        let last = heard.instant
                        try await Task.sleep(until: last + silenceLimit, clock: .continuous)
                        if heard.instant == last {
                            sink.finish(throwing: WatchSilence())
                            return
                        }
                    }
                }
                defer { group.cancelAll() }
                for try await line in lines {
                    guard let message = try Self.message(line) else { continue }
                    if case .created = message { created = true }
                    if await !receive(message) { return .stopped }
                }
                return Task.isCancelled ? .stopped : .closed
            }
        } catch let error as EtcdError {
            throw error
        } catch is WatchSilence {
            guard created else {
                throw EtcdError(
                    .unavailable, "\(endpoint.absoluteString) did not confirm the watch within \(silenceLimit)")
            }
            return .silent
        } catch {
            throw EtcdError(.unavailable, "the watch on \(endpoint.absoluteString) broke: \(error)")
        }
    }

    /// Hands each newline-terminated, non-empty line of the body to `handle`.
    private static func readLines(of response: HTTPClientResponse, _ handle: (Data) -> Void) async throws {
        var pending = Data()
        for try await buffer in response.body {
            pending.append(contentsOf: buffer.readableBytesView)
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = pending[pending.startIndex..<newline]
                pending = Data(pending[(newline + 1)...])
                if !line.isEmpty { handle(Data(line)) }
            }
        }
    }

    private static func message(_ line: Data) throws(EtcdError) -> WatchMessage? {
        let wire: EtcdWireWatchLine
        do {
            wire = try JSONDecoder().decode(EtcdWireWatchLine.self, from: line)
        } catch {
            throw EtcdError(.protocolError, "a watch line is not JSON etcd would send: \(error)")
        }
        if let failure = wire.error {
            throw EtcdError(.unavailable, "the watch failed: \(failure.message ?? "no message")")
        }
        guard let result = wire.result else { return nil }
        if result.canceled == true {
            guard let compact = result.compact_revision.flatMap({ Int64($0) }), compact > 0 else {
                throw EtcdError(.unavailable, "etcd cancelled the watch: \(result.cancel_reason ?? "no reason given")")
            }
            return .compacted(compactRevision: compact)
        }
        if result.created == true { return .created }
        guard let events = result.events, !events.isEmpty else { return nil }  // progress notification
        let changes = try events.map { event throws(EtcdError) in
            WatchEvent(isDelete: event.type == "DELETE", keyValue: try keyValue(event.kv ?? EtcdWireKeyValue()))
        }
        // A catch-up message may hold several revisions; the last event's is where to resume.
        let revision = changes.map(\.keyValue.modRevision).max() ?? Int64(result.header?.revision ?? "") ?? 0
        return .changes(changes, revision: revision)
    }
}

/// The watch's stream sent nothing for its silence limit.
private struct WatchSilence: Error {}

/// When the watch's stream last sent a line.
private final class LastHeard: Sendable {
    private let last = Mutex(ContinuousClock.now)

    var instant: ContinuousClock.Instant { last.withLock { $0 } }

    func touch() { last.withLock { $0 = .now } }
}
