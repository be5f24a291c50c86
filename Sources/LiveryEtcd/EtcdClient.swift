package import AsyncHTTPClient
package import Foundation
package import Logging
package import NIOCore
import NIOHTTP1
import NIOPosix
package import NIOSSL
import Synchronization

/// A small etcd v3 client over etcd's JSON gateway (`/v3/kv/range`, `/v3/kv/txn`, `/v3/watch`,
/// `/v3/maintenance/status`), with several endpoints and failover.
///
/// Requests go to the endpoint that last answered; when it cannot be reached (or answers that
/// the cluster is unavailable) the next one is tried, and the first that answers becomes the
/// preferred one. A transaction moves on only when the connection itself failed, never after
/// etcd may have received it, so a write is never sent twice by the client.
package final class EtcdClient: Sendable {
    /// One key as read.
    public struct KeyValue: Sendable, Equatable {
        /// The key.
        public var key: String
        /// The value's bytes.
        public var value: Data
        /// The revision that created the key.
        public var createRevision: Int64
        /// The revision that last changed it.
        public var modRevision: Int64
    }

    /// A comparison a transaction makes before it writes.
    public enum Compare: Sendable {
        /// The key was last modified at this revision.
        case modRevision(key: String, equals: Int64)
        /// The key does not exist.
        case absent(key: String)
        /// No key in `[key, rangeEnd)` was modified at or after `revision`.
        case unchangedSince(key: String, rangeEnd: String, revision: Int64)
    }

    /// A write of a transaction.
    public enum Operation: Sendable {
        /// Sets a key.
        case put(key: String, value: Data)
        /// Removes a key, or every key in `[key, rangeEnd)`.
        case delete(key: String, rangeEnd: String? = nil)
    }

    /// The client URLs of the members (`http://127.0.0.1:2379`).
    public let endpoints: [URL]
    let http: HTTPClient
    let logger: Logger
    /// How long one request may take; a watch has a silence limit instead.
    let requestTimeout: TimeAmount
    /// The index of the endpoint that last answered, where requests and watches start.
    let preferred = Mutex(0)
    /// The etcd user the client authenticates as; `nil` when etcd does not require one.
    let credentials: EtcdCredentials?
    /// The token the last authentication gave, sent in `Authorization` until etcd refuses it.
    private let token = Mutex<String?>(nil)

    /// Creates a client over `http`, which the caller owns and shuts down, authenticating as
    /// `credentials` when given.
    ///
    /// Give `http` a short connect timeout and no connection retries
    /// (``makeHTTPClient(tls:)``), or a dead member holds every request until its timeout.
    public init(
        endpoints: [URL], http: HTTPClient, credentials: EtcdCredentials? = nil, logger: Logger,
        requestTimeout: TimeAmount = .seconds(5)
    ) {
        precondition(!endpoints.isEmpty, "an etcd client needs at least one endpoint")
        self.endpoints = endpoints
        self.http = http
        self.credentials = credentials
        self.logger = logger
        self.requestTimeout = requestTimeout
    }

    /// An HTTP client suited to failover: a 1 s connect timeout and no retrying of refused
    /// connections, so that a dead member is skipped at once; `tls` for `https` endpoints
    /// (``EtcdSecurity/tlsConfiguration()``).
    public static func makeHTTPClient(tls: TLSConfiguration? = nil) -> HTTPClient {
        var configuration = HTTPClient.Configuration()
        configuration.tlsConfiguration = tls
        configuration.timeout.connect = .seconds(1)
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 64
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }

    /// The keys in `[key, rangeEnd)` at `revision` (the newest by default), and the revision read;
    /// with `keysOnly`, every value is left empty.
    public func range(
        key: String, rangeEnd: String, revision: Int64? = nil, keysOnly: Bool = false
    ) async throws(EtcdError) -> (
        [KeyValue], revision: Int64
    ) {
        let request = EtcdWireRangeRequest(
            key: key.etcdBase64, range_end: rangeEnd.etcdBase64, revision: revision.map(String.init),
            keys_only: keysOnly ? true : nil)
        let response: EtcdWireRangeResponse = try await call("/v3/kv/range", request, idempotent: true)
        let kvs = try (response.kvs ?? []).map { wire throws(EtcdError) in try Self.keyValue(wire) }
        return (kvs, Int64(response.header?.revision ?? "") ?? 0)
    }

    /// Runs `operations` if every comparison holds: `true` and the new revision, or `false`.
    public func transaction(
        if compares: [Compare], then operations: [Operation]
    ) async throws(EtcdError) -> (
        succeeded: Bool, revision: Int64
    ) {
        let request = EtcdWireTxnRequest(compare: compares.map(\.wire), success: operations.map(\.wire))
        let response: EtcdWireTxnResponse = try await call("/v3/kv/txn", request, idempotent: false)
        return (response.succeeded ?? false, Int64(response.header?.revision ?? "") ?? 0)
    }

    /// The cluster's current revision and whether the member that answered knows a leader.
    public func status() async throws(EtcdError) -> (revision: Int64, hasLeader: Bool) {
        let response: EtcdWireStatusResponse = try await call(
            "/v3/maintenance/status", [String: String](), idempotent: true)
        return (Int64(response.header?.revision ?? "") ?? 0, (response.leader ?? "0") != "0")
    }

    /// `range_end` for every key that starts with `prefix`: the prefix with its last byte + 1.
    public static func prefixEnd(_ prefix: String) -> String {
        var bytes = Array(prefix.utf8)
        while let last = bytes.last {
            if last < 0xFF {
                bytes[bytes.count - 1] = last + 1
                return String(decoding: bytes, as: UTF8.self)
            }
            bytes.removeLast()
        }
        return "\0"
    }

    /// Posts `body` to `path` with the client's token, authenticating first when it has none;
    /// a token etcd no longer accepts (expired, or the member restarted) is replaced once. etcd
    /// checks the token before it applies anything, so a refused write is safe to send again.
    func call<Body: Encodable, Answer: Decodable>(
        _ path: String, _ body: Body, idempotent: Bool
    ) async throws(EtcdError) -> Answer {
        let bytes: Data
        do {
            bytes = try JSONEncoder().encode(body)
        } catch {
            throw EtcdError(.protocolError, "cannot encode the request for \(path): \(error)")
        }
        let sent = try await authorization()
        do {
            return try await post(path, bytes, idempotent: idempotent, authorization: sent)
        } catch  where error.code == .unauthenticated && sent != nil {
            token.withLock { if $0 == sent { $0 = nil } }
            return try await post(path, bytes, idempotent: idempotent, authorization: try await authorization())
        }
    }

    /// The `Authorization` value requests carry: the cached token, or a new one from
    /// `/v3/auth/authenticate`; `nil` without credentials.
    func authorization() async throws(EtcdError) -> String? {
        guard let credentials else { return nil }
        if let cached = token.withLock({ $0 }) { return cached }
        let request = EtcdWireAuthenticateRequest(name: credentials.user, password: credentials.password)
        let bytes: Data
        do {
            bytes = try JSONEncoder().encode(request)
        } catch {
            throw EtcdError(.protocolError, "cannot encode the authentication request: \(error)")
        }
        let answer: EtcdWireAuthenticateResponse = try await post(
            "/v3/auth/authenticate", bytes, idempotent: true, authorization: nil)
        guard let fresh = answer.token, !fresh.isEmpty else {
            throw EtcdError(.unauthenticated, "etcd authenticated user '\(credentials.user)' but gave no token")
        }
        token.withLock { $0 = fresh }
        return fresh
    }

    /// Forgets the token if etcd refused `status` for it, so the next request authenticates again.
    func forgetToken(ifRefused status: UInt, sent: String?) {
        guard status == 401, let sent else { return }
        token.withLock { if $0 == sent { $0 = nil } }
    }

    /// Posts `bytes` to `path` on the preferred endpoint, then on the others in turn.
    private func post<Answer: Decodable>(
        _ path: String, _ bytes: Data, idempotent: Bool, authorization: String?
    ) async throws(EtcdError) -> Answer {
        let first = preferred.withLock { $0 }
        var failures: [String] = []
        for offset in 0..<endpoints.count {
            let index = (first + offset) % endpoints.count
            let endpoint = endpoints[index]
            var request = HTTPClientRequest(url: endpoint.absoluteString + path)
            request.method = .POST
            request.headers.add(name: "Content-Type", value: "application/json")
            if let authorization { request.headers.add(name: "Authorization", value: authorization) }
            request.body = .bytes(ByteBuffer(bytes: bytes))
            let status: UInt
            let answer: ByteBuffer
            do {
                let response = try await http.execute(request, timeout: requestTimeout)
                status = response.status.code
                answer = try await response.body.collect(upTo: 64 * 1024 * 1024)
            } catch {
                failures.append("\(endpoint.absoluteString): \(error)")
                if idempotent || Self.neverConnected(error) { continue }
                throw EtcdError(
                    .unavailable,
                    "\(path) failed at \(endpoint.absoluteString): \(error); it may or may not have been applied")
            }
            let data = Data(answer.readableBytesView)
            if status == 200 {
                preferred.withLock { $0 = index }
                do {
                    return try JSONDecoder().decode(Answer.self, from: data)
                } catch {
                    throw EtcdError(
                        .protocolError,
                        "\(endpoint.absoluteString)\(path) answered JSON the client cannot read: \(error)")
                }
            }
            let failure = try Self.failure(status: status, body: data, at: endpoint.absoluteString + path)
            failures.append(failure.message)
            guard failure.code == .unavailable, idempotent else { throw failure }
        }
        logger.warning("etcd unreachable", metadata: ["livery.path": "\(path)", "livery.failures": "\(failures)"])
        throw EtcdError(.unavailable, "no etcd endpoint answered \(path): " + failures.joined(separator: "; "))
    }

    /// The error a non-200 answer stands for: 503 is "try later" (no leader, timeouts, and the
    /// 408 "client connection is closing" a member answers while it shuts down: the gateway's
    /// mapping of gRPC's Canceled), a compacted or future revision is told apart, anything else
    /// is refused.
    private static func failure(status: UInt, body: Data, at place: String) throws(EtcdError) -> EtcdError {
        let wire: EtcdWireError?
        do {
            wire = try JSONDecoder().decode(EtcdWireError.self, from: body)
        } catch {
            wire = nil
        }
        let message = wire?.message ?? wire?.error ?? String(decoding: body.prefix(300), as: UTF8.self)
        if message.contains("required revision has been compacted") {
            return EtcdError(.compacted, "\(place): \(message)")
        }
        if message.contains("required revision is a future revision") {
            return EtcdError(.futureRevision, "\(place): \(message)")
        }
        if [408, 502, 503, 504].contains(status) || wire?.code == 1 || wire?.code == 14 {
            return EtcdError(.unavailable, "\(place) answered \(status): \(message)")
        }
        // gRPC's Unauthenticated (an invalid or expired token) and the gateway's answer to a
        // wrong user or password; PermissionDenied for a role without the key.
        if wire?.code == 16 || message.contains("authentication failed") || message.contains("user name is empty") {
            return EtcdError(.unauthenticated, "\(place) answered \(status): \(message)")
        }
        if wire?.code == 7 {
            return EtcdError(.permissionDenied, "\(place) answered \(status): \(message)")
        }
        return EtcdError(.protocolError, "\(place) answered \(status): \(message)")
    }

    /// Whether `error` shows that no connection was made, so the request never left.
    private static func neverConnected(_ error: any Error) -> Bool {
        if let error = error as? HTTPClientError, error == .connectTimeout { return true }
        if error is NIOConnectionError { return true }
        if let error = error as? IOError, error.errnoCode == ECONNREFUSED { return true }
        return false
    }

    static func keyValue(_ wire: EtcdWireKeyValue) throws(EtcdError) -> KeyValue {
        guard let key = Data(base64Encoded: wire.key ?? ""), let value = Data(base64Encoded: wire.value ?? "") else {
            throw EtcdError(.protocolError, "a key or value is not base64")
        }
        return KeyValue(
            key: String(decoding: key, as: UTF8.self), value: value,
            createRevision: Int64(wire.create_revision ?? "") ?? 0, modRevision: Int64(wire.mod_revision ?? "") ?? 0)
    }
}

extension EtcdClient.Compare {
    var wire: EtcdWireCompare {
        switch self {
        case .modRevision(let key, let revision):
            return EtcdWireCompare(key: key.etcdBase64, target: "MOD", result: "EQUAL", mod_revision: String(revision))
        case .absent(let key):
            return EtcdWireCompare(key: key.etcdBase64, target: "CREATE", result: "EQUAL", create_revision: "0")
        case .unchangedSince(let key, let rangeEnd, let revision):
            return EtcdWireCompare(
                key: key.etcdBase64, range_end: rangeEnd.etcdBase64, target: "MOD", result: "LESS",
                mod_revision: String(revision + 1))
        }
    }
}

extension EtcdClient.Operation {
    var wire: EtcdWireOperation {
        switch self {
        case .put(let key, let value):
            return EtcdWireOperation(request_put: .init(key: key.etcdBase64, value: value.base64EncodedString()))
        case .delete(let key, let rangeEnd):
            return EtcdWireOperation(request_delete_range: .init(key: key.etcdBase64, range_end: rangeEnd?.etcdBase64))
        }
    }
}
