import Foundation
import Livery
import LiveryServer
import LiveryTestSupport
import LiveryTesting
import Logging

/// The real `livery serve` (``LiveryServer/LiveryDaemon``) on a loopback port, serving a
/// temporary specs folder watched with inotify; ``stop()`` shuts it down gracefully.
struct RunningDaemon {
    let daemon: LiveryDaemon
    let task: Task<Void, any Error>
    let port: Int
    /// The daemon's state folder, unless the test gave one: its history stays out of the user's.
    let state: TemporarySpecFolder

    var url: URL { URL(string: "http://127.0.0.1:\(port)")! }

    static func start(
        folder: TemporarySpecFolder, port: Int = 0, registry: TraitRegistry = .standard,
        configure: (inout DaemonConfiguration) -> Void = { _ in }
    ) async throws -> RunningDaemon {
        var configuration = DaemonConfiguration(
            directory: folder.url, port: port, heartbeatInterval: .milliseconds(300),
            retryHint: .milliseconds(100), registry: registry)
        let state = try TemporarySpecFolder(prefix: "livery-state")
        configuration.stateDirectory = state.url
        configure(&configuration)
        let logger = Logger(label: "livery.remote.test") { _ in SwiftLogNoOpLogHandler() }
        let token = try BearerToken("test-token-0123456789abcdef")
        let daemon = LiveryDaemon(configuration: configuration, token: token, logger: logger)
        let task = GracefulServer.run(daemon, logger: logger)
        return RunningDaemon(daemon: daemon, task: task, port: try await daemon.listeningPort(), state: state)
    }

    func stop() async {
        task.cancel()
        _ = await task.result  // cancellation is how it stops; its error says nothing new
    }

    /// How many `GET /v1/spec` requests the daemon answered with `status`, from its own metrics.
    func bundleRequests(status: Int) -> Int {
        Self.count(in: daemon.metrics.render(), route: "/v1/spec", status: status)
    }

    /// The sum of `livery_http_requests_total` over the series of `route` and `status`.
    static func count(in metrics: String, route: String, status: Int) -> Int {
        metrics.split(separator: "\n")
            .filter {
                $0.hasPrefix("livery_http_requests_total{") && $0.contains("route=\"\(route)\"")
                    && $0.contains("status=\"\(status)\"")
            }
            .compactMap { $0.split(separator: " ").last.flatMap { Double($0) } }
            .reduce(0) { $0 + Int($1) }
    }
}
