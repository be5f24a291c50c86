import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

extension DaemonProcess {
    /// The requests the daemon has answered, on every route but `/metrics` itself: the sum of
    /// `livery_http_requests_total` in its `GET /metrics`.
    func requestsAnswered() throws -> Int {
        let url = "http://127.0.0.1:\(port)/metrics"
        let metrics = try Blocking.run {
            let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: url), timeout: .seconds(10))
            let body = try await response.body.collect(upTo: 1 << 22)
            guard response.status.code == 200 else { throw BenchError("GET \(url) answered \(response.status)") }
            return String(buffer: body)
        }
        return metrics.split(separator: "\n")
            .filter { $0.hasPrefix("livery_http_requests_total{") && !$0.contains("route=\"/metrics\"") }
            .compactMap { $0.split(separator: " ").last.flatMap { Double($0) } }
            .reduce(0) { $0 + Int($1) }
    }
}
