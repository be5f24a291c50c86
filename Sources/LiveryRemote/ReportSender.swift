import AsyncHTTPClient
import Foundation
import LiveryHTTP
import Logging
import NIOCore
import NIOHTTP1
import Synchronization

/// Sends a refusal or a problem report to the daemon the moment the consumer records it:
/// `POST /v1/reports` with the `Livery-Client` header of the moment (and the read token and
/// headers of every request), off the caller's thread, never awaited.
///
/// Why not only the next request's header: behind a front that caches and coalesces the version
/// signal and the versions (the shipped nginx one), the daemon sees one client's header per
/// round, so most of a cohort's refusals would never reach it and its `--abort-when` would not
/// fire. A `POST` passes any such front uncached. The header of later requests still says the same.
final class ReportSender: Sendable {
    let identity: ClientIdentity
    private let client: HTTPClient
    private let configuration: RemoteSpecSource.Configuration
    private let timeout: Duration
    private let logger: Logger
    /// The daemon the session asks now: a failover moves reports along with its requests.
    private let endpoint: Mutex<URL>

    init(client: HTTPClient, endpoint: URL, configuration: RemoteSpecSource.Configuration, logger: Logger) {
        self.client = client
        self.endpoint = Mutex(endpoint)
        self.configuration = configuration
        identity = configuration.identity
        timeout = configuration.connectTimeout + configuration.readTimeout
        self.logger = logger
    }

    /// Makes `url` the daemon later reports go to.
    func move(to url: URL) {
        endpoint.withLock { $0 = url }
    }

    /// Sends `header` in a task of its own; a failure is logged, and the header of the session's
    /// next request reports the same.
    func send(_ header: LiveryClientHeader) {
        let target = EnvironmentPath.url(
            endpoint.withLock { $0 }, route: CrossOriginPolicy.reportsPath, environment: configuration.environment)
        let request = configuration.request(.POST, target, reporting: header)
        Task { [client, timeout, logger] in
            do {
                let response = try await client.execute(request, timeout: TimeAmount(timeout), logger: logger)
                _ = try await response.body.collect(upTo: 4096)
                guard response.status.code == 204 else {
                    logger.warning(
                        "report refused",
                        metadata: ["livery.remote.url": "\(target)", "livery.remote.status": "\(response.status.code)"])
                    return
                }
            } catch {
                logger.warning(
                    "report not sent", metadata: ["livery.remote.url": "\(target)", "livery.remote.error": "\(error)"])
            }
        }
    }
}
