import Prometheus

/// The metrics about one environment's spec set (its versions, pushes, waiting clients, fleet
/// and rollouts), each labelled `environment="NAME"` on the daemon's registry, so that a
/// dashboard tells a push to staging from one to production. ``SpecSet`` makes one for its
/// environment; the daemon-wide series (connections, requests) stay on ``ServerMetrics``.
package final class EnvironmentMetrics: Sendable {
    /// The environment's name: the value of every series' `environment` label.
    package let environment: String
    /// Successful loads of the environment's specs.
    let reloads: Counter
    /// Writes that went through (PUT, DELETE, publishes, restores, promotions).
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
    private let registry: PrometheusCollectorRegistry

    /// Registers the environment's series on `server`'s registry; a second call for the same
    /// name (an environment deleted and created again) finds the same series.
    package init(environment: String, server: ServerMetrics) {
        self.environment = environment
        registry = server.registry
        let labels = [("environment", environment)]
        reloads = registry.makeCounter(
            descriptor: ServerMetrics.name("reloads", "total", "Successful loads of an environment's specs."),
            labels: labels)
        pushes = registry.makeCounter(
            descriptor: ServerMetrics.name("pushes", "total", "Pushed changes written to an environment's specs."),
            labels: labels)
        waitingClients = registry.makeGauge(
            descriptor: ServerMetrics.name(
                "waiting_clients", "", "Clients waiting for a new bundle (long-polls and event streams)."),
            labels: labels)
        bundleBytes = registry.makeGauge(
            descriptor: ServerMetrics.name("bundle", "bytes", "Size of the current bundle."), labels: labels)
        fleetClients = registry.makeGauge(
            descriptor: ServerMetrics.name(
                "fleet_clients", "", "Clients heard from lately, by their Livery-Client header."),
            labels: labels)
        fleetClientsNotConverged = registry.makeGauge(
            descriptor: ServerMetrics.name(
                "fleet_clients_not_converged", "", "Clients whose applied version is not the current one."),
            labels: labels)
        malformedClientHeaders = registry.makeCounter(
            descriptor: ServerMetrics.name(
                "malformed_client_headers", "total", "Livery-Client headers that did not parse."),
            labels: labels)
        // Shown at 0 from the start, so that an alert on their rate has a series before the first.
        _ = rejectedSpecs(source: "disk")
        _ = rejectedSpecs(source: "push")
        _ = rolloutAborts(by: "daemon")
        _ = rolloutAborts(by: "operator")
    }

    /// Rollouts aborted, by whom: the `daemon` (its cohort's reports reached the threshold) or
    /// an `operator`.
    func rolloutAborts(by who: String) -> Counter {
        registry.makeCounter(
            descriptor: ServerMetrics.name(
                "rollout_aborts", "total", "Rollouts aborted, by the daemon itself or an operator."),
            labels: [("environment", environment), ("by", who)])
    }

    /// Spec states refused: from the store (`disk`) or from a push (`push`).
    func rejectedSpecs(source: String) -> Counter {
        registry.makeCounter(
            descriptor: ServerMetrics.name(
                "rejected_specs", "total", "Spec states refused because they do not validate."),
            labels: [("environment", environment), ("source", source)])
    }
}
