import AsyncHTTPClient
import Foundation
import NIOCore

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

    /// Watches `[key, rangeEnd)` from `startRevision`, calling `receive` for each message, until
    /// etcd closes the stream or `receive` returns `false`. Throws if no endpoint can be reached
    /// or the connection breaks; the caller watches again from the revision after the last one
    /// it received, and misses nothing.
    public func watch(
        key: String, rangeEnd: String, from startRevision: Int64,
        receive: (WatchMessage) async -> Bool
    ) async throws(EtcdError) {
        let create = EtcdWireWatchRequest(
            create_request: .init(
                key: key.etcdBase64, range_end: rangeEnd.etcdBase64, start_revision: String(startRevision)))
        let body: Data
        do {
            body = try JSONEncoder().encode(create)
        } catch {
            throw EtcdError(.protocolError, "cannot encode a watch request: \(error)")
        }
        var failures: [String] = []
        for endpoint in endpoints {
            var request = HTTPClientRequest(url: endpoint.absoluteString + "/v3/watch")
            request.method = .POST
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: body))
            let response: HTTPClientResponse
            do {
                response = try await http.execute(request, deadline: .distantFuture)
            } catch {
                failures.append("\(endpoint.absoluteString): \(error)")
                continue
            }
            guard response.status == .ok else {
                failures.append("\(endpoint.absoluteString) answered \(response.status.code)")
                continue
            }
            do {
                try await readLines(of: response) { line throws(EtcdError) in
                    guard let message = try Self.message(line) else { return true }
                    return await receive(message)
                }
            } catch let error as EtcdError {
                throw error
            } catch {
                throw EtcdError(.unavailable, "the watch on \(endpoint.absoluteString) broke: \(error)")
            }
            return
        }
        throw EtcdError(.unavailable, "no etcd endpoint accepted a watch: " + failures.joined(separator: "; "))
    }

    /// Feeds each newline-terminated line of the body to `handle` until it returns `false`.
    private func readLines(
        of response: HTTPClientResponse, _ handle: (Data) async throws(EtcdError) -> Bool
    ) async throws {
        var pending = Data()
        for try await buffer in response.body {
            pending.append(contentsOf: buffer.readableBytesView)
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = pending[pending.startIndex..<newline]
                pending = Data(pending[(newline + 1)...])
                guard !line.isEmpty else { continue }
                if try await !handle(Data(line)) { return }
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
