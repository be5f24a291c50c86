import Foundation
import Hummingbird

extension DaemonRoutes {
    /// `GET /healthz`: 200 while the daemon runs, with the current bundle's tag and the
    /// folder's current errors, if any (the last good bundle is still served then).
    func health() -> Response {
        let snapshot = hub.snapshot
        let report = HealthReport(
            status: "ok", etag: snapshot?.etag.description, files: snapshot?.files.count ?? 0,
            lastError: hub.errors.first)
        return JSONBody.response(report, headers: [.cacheControl: "no-store"])
    }

    /// `GET /v1/status`: the bundle, the folder's errors with their places, and waiting clients.
    func status() -> Response {
        let snapshot = hub.snapshot
        let errors = hub.errors
        let report = StatusReport(
            directory: configuration.directory.path,
            etag: snapshot?.etag.description,
            files: snapshot?.files ?? [],
            bundleBytes: snapshot?.bytes.readableBytes ?? 0,
            loadedAt: snapshot.map { ISO8601DateFormatter().string(from: $0.loadedAt) },
            lastError: errors.first,
            errors: errors,
            errorAt: hub.errorAt.map { ISO8601DateFormatter().string(from: $0) },
            waitingClients: hub.waitingClients)
        return JSONBody.response(report, headers: [.cacheControl: "no-store"])
    }

    /// `GET /metrics`: Prometheus text exposition.
    func renderMetrics() -> Response {
        Response(
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
    var directory: String
    var etag: String?
    var files: [String]
    var bundleBytes: Int
    var loadedAt: String?
    var lastError: Diagnostic?
    var errors: [Diagnostic]
    var errorAt: String?
    var waitingClients: Int
}
