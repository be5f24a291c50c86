import Foundation
import Hummingbird
import LiveryServer
import LiveryTestSupport
import Logging
import NIOCore
import Synchronization

/// A stand-in for `livery serve` that tests can stop, restart on the same port and silence:
/// `GET /v1/spec?wait=`, `/v1/version` and `/v1/spec/{etag}` answered by the daemon's own
/// `BundleDecision`, and `GET /v1/events`, over a ``BundleStore``, on a loopback port.
final class StandInDaemon: Sendable {
    /// What the daemon has seen, for assertions.
    final class Traffic: Sendable {
        private struct State {
            var specRequests = 0
            var eventConnections = 0
            var lastEventIDs: [String?] = []
        }

        private let state = Mutex(State())

        /// Requests of `/v1/spec`, `/v1/version` and `/v1/spec/{etag}` so far.
        var specRequests: Int { state.withLock { $0.specRequests } }
        /// Connections to `/v1/events` so far.
        var eventConnections: Int { state.withLock { $0.eventConnections } }
        /// The `Last-Event-ID` of each connection to `/v1/events`.
        var lastEventIDs: [String?] { state.withLock { $0.lastEventIDs } }

        fileprivate func recordSpecRequest() { state.withLock { $0.specRequests += 1 } }

        fileprivate func recordEventConnection(lastEventID: String?) {
            state.withLock {
                $0.eventConnections += 1
                $0.lastEventIDs.append(lastEventID)
            }
        }
    }

    let store: BundleStore
    let port: Int
    let traffic: Traffic
    private let task: Task<Void, any Error>

    /// Starts serving `store` on `port` (0: any free port) and returns once it listens.
    ///
    /// - Parameters:
    ///   - heartbeat: The interval of `: heartbeat` comments; nil sends none (a silent server).
    static func start(
        store: BundleStore, port: Int = 0, heartbeat: Duration? = .milliseconds(200)
    ) async throws -> StandInDaemon {
        let traffic = Traffic()
        let router = Router()
        // The version signal and a version's bundle, by the same rules; only the current
        // version is kept.
        for path in ["v1/spec", "v1/version", "v1/spec/{etag}"] {
            router.get(RouterPath(path)) { request, _ -> Response in
                traffic.recordSpecRequest()
                return await Self.bundle(request, store: store)
            }
        }
        router.get("v1/events") { request, _ -> Response in
            let lastEventID = request.headers.first { $0.name.canonicalName == "last-event-id" }?.value
            traffic.recordEventConnection(lastEventID: lastEventID)
            return Self.events(since: lastEventID, store: store, heartbeat: heartbeat)
        }
        let (bound, boundContinuation) = AsyncStream.makeStream(of: Int.self)
        var logger = Logger(label: "test-daemon")
        logger.logLevel = .critical
        let app = Application(
            router: router,
            configuration: .init(address: .hostname("127.0.0.1", port: port)),
            onServerRunning: { channel in
                boundContinuation.yield(channel.localAddress?.port ?? 0)
                boundContinuation.finish()
            },
            logger: logger
        )
        let task = GracefulServer.run(app, logger: logger)
        Task {
            _ = await task.result
            boundContinuation.finish()  // a server that cannot bind ends the wait below
        }
        var ports = bound.makeAsyncIterator()
        guard let actual = await ports.next(), actual > 0 else {
            task.cancel()
            try await task.value
            throw FreePort.Failure(description: "the test daemon did not start on port \(port)")
        }
        return StandInDaemon(store: store, port: actual, traffic: traffic, task: task)
    }

    private init(store: BundleStore, port: Int, traffic: Traffic, task: Task<Void, any Error>) {
        self.store = store
        self.port = port
        self.traffic = traffic
        self.task = task
    }

    var url: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// Stops listening and ends held requests and streams, as a daemon going down does.
    func stop() async {
        store.closeAll()
        task.cancel()
        _ = await task.result
    }

    // MARK: Handlers

    /// `GET /v1/spec` by the daemon's own rules (`BundleDecision`), waiting in the store's
    /// changes where a long-poll of `livery serve` waits in its hub.
    private static func bundle(_ request: Request, store: BundleStore) async -> Response {
        guard let query = BundleQuery(request.head) else { return Response(status: .notFound) }
        let changes = store.changes()  // subscribe first, then look
        guard case .wait(let wait) = BundleDecision.decide(query, state: .loaded(store.snapshot), mayWait: true) else {
            return BundleDecision.respond(to: query, state: .loaded(store.snapshot)).response
        }
        let published = await withTaskGroup(of: BundleResponse?.self) { group in
            group.addTask {
                for await _ in changes {
                    let answer = BundleDecision.decide(query, state: .loaded(store.snapshot), mayWait: true)
                    if case .respond(let response) = answer { return response }
                }
                return nil
            }
            group.addTask {
                try? await Task.sleep(for: wait)  // the wait ends: decided again below
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
        return (published ?? BundleDecision.respond(to: query, state: .loaded(store.snapshot))).response
    }

    private static func events(since lastEventID: String?, store: BundleStore, heartbeat: Duration?) -> Response {
        let changes = store.changes()
        let body = ResponseBody { writer in
            let (ticks, tick) = AsyncStream.makeStream(of: Bool.self)
            let forward = Task {
                for await _ in changes { tick.yield(true) }
                tick.finish()  // the store closed: end the stream, as a stopping daemon does
            }
            let beat = Task {
                guard let heartbeat else { return }
                while (try? await Task.sleep(for: heartbeat)) != nil { tick.yield(false) }
            }
            defer {
                forward.cancel()
                beat.cancel()
            }
            var sent = lastEventID
            try await writer.write(ByteBuffer(string: "retry: 100\n\n"))
            try await sendIfNewer(&sent, store: store, writer: &writer)
            for await isChange in ticks {
                if isChange {
                    try await sendIfNewer(&sent, store: store, writer: &writer)
                } else {
                    try await writer.write(ByteBuffer(string: ": heartbeat\n\n"))
                }
            }
            try await writer.finish(nil)
        }
        return Response(
            status: .ok,
            headers: [.contentType: "text/event-stream", .cacheControl: "no-cache"],
            body: body
        )
    }

    /// Writes the current bundle as an event unless the client has it already.
    private static func sendIfNewer(
        _ sent: inout String?, store: BundleStore, writer: inout any ResponseBodyWriter
    ) async throws {
        let current = store.current
        guard current.etag != sent else { return }
        // Written in two pieces, so the client meets an event split across chunks.
        let event = "id: \(current.etag)\nevent: spec\ndata: \(current.bundle)\n\n"
        let middle = event.index(event.startIndex, offsetBy: event.count / 2)
        try await writer.write(ByteBuffer(string: String(event[..<middle])))
        try await writer.write(ByteBuffer(string: String(event[middle...])))
        sent = current.etag
    }
}
