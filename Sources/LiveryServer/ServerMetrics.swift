package import Prometheus

/// The daemon's Prometheus metrics, registered on a registry the daemon owns (never the global
/// `MetricsSystem`: only an executable may bootstrap that).
package final class ServerMetrics: Sendable {
    /// The registry `GET /metrics` renders.
    public let registry: PrometheusCollectorRegistry
    /// Successful loads of the specs folder.
    let reloads: Counter
    /// Pushes written (PUT and DELETE).
    let pushes: Counter
    /// Clients currently waiting: long-polls and event streams.
    let waitingClients: Gauge
    /// Size of the current bundle in bytes.
    let bundleBytes: Gauge
    /// Clients heard from lately (their `Livery-Client` header), set when the fleet is shown.
    let fleetClients: Gauge
    /// Of those, the ones whose applied version is not the current one.
    let fleetClientsNotConverged: Gauge
    /// `Livery-Client` headers that did not parse (their requests were answered all the same).
    let malformedClientHeaders: Counter
    /// Connections closed as soon as accepted: over ``ConnectionLimits``.
    let refusedConnections: Counter
    /// Requests by route, method and status, with their latency.
    private let requests: RequestSeries

    /// Registers the metrics on `registry`.
    public init(registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry()) {
        self.registry = registry
        reloads = registry.makeCounter(
            descriptor: Self.name("reloads", "total", "Successful loads of the specs folder."))
        pushes = registry.makeCounter(
            descriptor: Self.name("pushes", "total", "Pushed changes written to the specs folder."))
        waitingClients = registry.makeGauge(
            descriptor: Self.name(
                "waiting_clients", "", "Clients waiting for a new bundle (long-polls and event streams)."))
        bundleBytes = registry.makeGauge(descriptor: Self.name("bundle", "bytes", "Size of the current bundle."))
        fleetClients = registry.makeGauge(
            descriptor: Self.name("fleet_clients", "", "Clients heard from lately, by their Livery-Client header."))
        fleetClientsNotConverged = registry.makeGauge(
            descriptor: Self.name(
                "fleet_clients_not_converged", "", "Clients whose applied version is not the current one."))
        malformedClientHeaders = registry.makeCounter(
            descriptor: Self.name("malformed_client_headers", "total", "Livery-Client headers that did not parse."))
        refusedConnections = registry.makeCounter(
            descriptor: Self.name(
                "refused_connections", "total", "Connections closed on arrival: over the connection limits."))
        requests = RequestSeries(registry: registry)
        _ = rejectedSpecs(source: "disk")
        _ = rejectedSpecs(source: "push")
        _ = rolloutAborts(by: "daemon")
        _ = rolloutAborts(by: "operator")
    }

    /// Rollouts aborted, by whom: the `daemon` (its cohort's reports reached the threshold) or
    /// an `operator`.
    func rolloutAborts(by who: String) -> Counter {
        registry.makeCounter(
            descriptor: Self.name("rollout_aborts", "total", "Rollouts aborted, by the daemon itself or an operator."),
            labels: [("by", who)])
    }

    /// Spec states refused: from the folder (`disk`) or from a push (`push`).
    func rejectedSpecs(source: String) -> Counter {
        registry.makeCounter(
            descriptor: Self.name("rejected_specs", "total", "Spec states refused because they do not validate."),
            labels: [("source", source)])
    }

    /// Counts a request and records its latency (until the response head; streams stay open).
    func recordRequest(route: String, method: String, status: Int, duration: Duration) {
        let series = requestSeries(route: route, method: method, status: status)
        series.count.increment()
        series.latency.record(duration)
    }

    /// The request counter and latency histogram of one route, method and status, for a hot
    /// path that looks them up once.
    func requestSeries(route: String, method: String, status: Int) -> RequestSeries.Series {
        requests.series(for: RequestSeries.Key(route: route, method: method, status: status))
    }

    private static func name(_ metric: String, _ unit: String, _ help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(namespace: "livery", metricName: metric, unitName: unit, helpText: help)
    }

    /// The Prometheus text exposition of every metric.
    public func render() -> String { registry.emitToString() }
}
