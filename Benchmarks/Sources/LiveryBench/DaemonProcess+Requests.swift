import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

extension DaemonProcess {
    /// The requests the daemon has answered, on every route but `/metrics` itself: the sum of
    /// `livery_http_requests_total` in its `GET /metrics`.
    func requestsAnswered() throws -> Int {
        try requestsByRoute().values.reduce(0, +)
    }

    /// Returns once the daemon has answered no request for `quiet` (at most `limit` from now):
    /// the requests an earlier phase left behind are over.
    func waitUntilQuiet(for quiet: Duration, atMost limit: Duration) throws {
        let deadline = ContinuousClock.now + limit
        var last = try requestsAnswered()
        while ContinuousClock.now < deadline {
            Thread.sleep(forTimeInterval: quiet / .seconds(1))
            let now = try requestsAnswered()
            if now == last { return }
            last = now
        }
        throw BenchError("the daemon was still answering requests \(limit) after the earlier phase")
    }

    /// The same by series (route, method and status, as `/metrics` labels them).
    func requestsByRoute() throws -> [String: Int] {
        let url = "http://127.0.0.1:\(port)/metrics"
        let metrics = try Blocking.run {
            let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: url), timeout: .seconds(10))
            let body = try await response.body.collect(upTo: 1 << 22)
            guard response.status.code == 200 else { throw BenchError("GET \(url) answered \(response.status)") }
            return String(buffer: body)
        }
        var counts: [String: Int] = [:]
        for line in metrics.split(separator: "\n")
        where line.hasPrefix("livery_http_requests_total{") && !line.contains("route=\"/metrics\"") {
            let parts = line.split(separator: " ")
            guard let series = parts.first, let value = parts.last.flatMap({ Double($0) }) else { continue }
            counts[String(series.dropFirst("livery_http_requests_total".count)), default: 0] += Int(value)
        }
        return counts
    }
}

extension [String: Int] {
    /// The series that grew from `before` to this, with how much: "route … +n" joined.
    func growth(since before: [String: Int]) -> String {
        compactMap { series, count in
            let grown = count - (before[series] ?? 0)
            return grown > 0 ? "\(series) +\(grown)" : nil
        }.sorted().joined(separator: ", ")
    }
}
