package import Prometheus

/// The daemon's Prometheus metrics, registered on a registry the daemon owns (never the global
/// `MetricsSystem`: only an executable may bootstrap that): here the daemon-wide series, and
/// each environment's own in its ``EnvironmentMetrics``.
package final class ServerMetrics: Sendable {
    /// The registry `GET /metrics` renders.
    public let registry: PrometheusCollectorRegistry
    /// Connections closed as soon as accepted: over ``ConnectionLimits``.
    let refusedConnections: Counter
    /// Requests by environment, route, method and status, with their latency.
    private let requests: RequestSeries

    /// Registers the metrics on `registry`.
    public init(registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry()) {
        self.registry = registry
        refusedConnections = registry.makeCounter(
            descriptor: Self.name(
                "refused_connections", "total", "Connections closed on arrival: over the connection limits."))
        requests = RequestSeries(registry: registry)
    }

    /// Counts a request and records its latency (until the response head; streams stay open).
    func recordRequest(route: String, environment: String, method: String, status: Int, duration: Duration) {
        let series = requestSeries(route: route, environment: environment, method: method, status: status)
        series.count.increment()
        series.latency.record(duration)
    }

    /// The request counter and latency histogram of one environment, route, method and status,
    /// for a hot path that looks them up once.
    func requestSeries(route: String, environment: String, method: String, status: Int) -> RequestSeries.Series {
        requests.series(
            for: RequestSeries.Key(environment: environment, route: route, method: method, status: status))
    }

    /// A metric of the daemon's namespace (`livery_…`).
    static func name(_ metric: String, _ unit: String, _ help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(namespace: "livery", metricName: metric, unitName: unit, helpText: help)
    }

    /// The Prometheus text exposition of every metric.
    public func render() -> String { registry.emitToString() }
}
