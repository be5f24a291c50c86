import Foundation
import Hummingbird
import LiveryHTTP

extension DaemonRoutes {
    /// `GET /healthz`: 200 while the daemon runs, with the current bundle's tag and the
    /// folder's current errors, if any (the last good bundle is still served then).
    func health(_ request: Request) -> Response {
        let snapshot = hub.snapshot
        let report = HealthReport(
            status: "ok", etag: snapshot?.etag.description, files: snapshot?.files.count ?? 0,
            lastError: hub.errors.first.map { shown($0, to: request) })
        return JSONBody.response(report, headers: [.cacheControl: "no-store"])
    }

    /// `GET /readyz`: 200 while the daemon has a bundle and follows its store; 503 otherwise
    /// (no spec loaded yet, or etcd unreachable: the last good bundle is still served, but a
    /// load balancer should prefer a daemon that sees changes).
    func readiness(_ request: Request) throws(Problem) -> Response {
        guard hub.snapshot != nil else { throw shown(.noBundle(hub.errors), to: request) }
        if let stale = hub.staleSince {
            throw Problem(
                kind: .storeUnreachable,
                detail:
                    "etcd has been unreachable since \(Self.timestamp(stale.date)) (\(shown(stale.reason, to: request))); the last good bundle is still served",
                headers: [.retryAfter: "1"])
        }
        return JSONBody.response(["status": "ready"], headers: [.cacheControl: "no-store"])
    }

    /// `GET /v1/status`: the bundle, the store's errors with their places, whether the store is
    /// followed (etcd: its revision, and since when it is unreachable), and waiting clients. The
    /// folder's path and etcd's endpoints only for a request with the push token
    /// (``disclosesPlaces(to:)``).
    func status(_ request: Request) -> Response {
        let snapshot = hub.snapshot
        let errors = hub.errors.map { shown($0, to: request) }
        let stale = hub.staleSince
        let discloses = disclosesPlaces(to: request)
        let report = StatusReport(
            environment: specSet.name,
            store: configuration.etcd == nil ? "folder" : "etcd",
            directory: discloses ? environments.space.folder(of: specSet.name)?.path : nil,
            etcdEndpoints: discloses ? configuration.etcd?.endpoints.map(\.absoluteString) : nil,
            etcdPrefix: environments.space.etcdPrefix(of: specSet.name),
            revision: hub.storeRevision,
            staleSince: stale.map { Self.timestamp($0.date) },
            staleReason: stale.map { shown($0.reason, to: request) },
            etag: snapshot?.etag.description,
            files: snapshot?.files ?? [],
            bundleBytes: snapshot?.bytes.readableBytes ?? 0,
            loadedAt: snapshot.map { Self.timestamp($0.loadedAt) },
            lastError: errors.first,
            errors: errors,
            errorAt: hub.errorAt.map { Self.timestamp($0) },
            waitingClients: hub.waitingClients,
            rollout: rollouts.record?.rollout,
            rolloutAbortReason: rollouts.record?.abortReason)
        return JSONBody.response(report, headers: [.cacheControl: "no-store"])
    }

    static func timestamp(_ date: Date) -> String {
        ISO8601DateFormatter().string(from: date)
    }

    /// `GET /metrics`: Prometheus text exposition.
    func renderMetrics() -> Response {
        _ = fleetStatus()  // sets the fleet gauges
        return Response(
            status: .ok,
            headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(string: metrics.render())))
    }
}

/// The body of `GET /healthz`.
struct HealthReport: Codable {
    var status: String
    var etag: String?
    var files: Int
    var lastError: Diagnostic?
}

/// The body of `GET /v1/status`.
struct StatusReport: Codable {
    /// The environment reported on.
    var environment: String
    var store: String
    var directory: String?
    var etcdEndpoints: [String]?
    var etcdPrefix: String?
    var revision: Int64?
    var staleSince: String?
    var staleReason: String?
    var etag: String?
    var files: [String]
    var bundleBytes: Int
    var loadedAt: String?
    var lastError: Diagnostic?
    var errors: [Diagnostic]
    var errorAt: String?
    var waitingClients: Int
    /// The last rollout (running, aborted or completed); details at `GET /v1/rollout`.
    var rollout: Rollout?
    /// Why it was aborted, when it was.
    var rolloutAbortReason: String?
}
