import Prometheus
import Synchronization

/// The request counter and latency histogram of each (environment, route, method, status),
/// made once and then found by a dictionary lookup.
///
/// Asking the Prometheus registry for them on every request would validate the metric name,
/// the label names and the help text and hash the labels under the registry's lock, twice per
/// request: on the daemon's hot path (a 304 to a conditional GET) that was most of the work.
final class RequestSeries: Sendable {
    struct Key: Hashable, Sendable {
        /// The environment the request addressed, if it exists; empty for a route about the
        /// daemon, an unknown environment and no route (Prometheus reads an empty label as none).
        var environment: String
        var route: String
        var method: String
        var status: Int
    }

    struct Series: Sendable {
        let count: Counter
        let latency: DurationHistogram
    }

    private let registry: PrometheusCollectorRegistry
    private let series = Mutex<[Key: Series]>([:])

    init(registry: PrometheusCollectorRegistry) {
        self.registry = registry
    }

    /// The series of `key`, registered on first use.
    func series(for key: Key) -> Series {
        if let found = series.withLock({ $0[key] }) { return found }
        // Registered outside our lock (the registry has its own); a race registers the same
        // series twice, and the registry returns the same collectors both times.
        let labels = [
            ("environment", key.environment), ("route", key.route), ("method", key.method),
            ("status", String(key.status)),
        ]
        let made = Series(
            count: registry.makeCounter(descriptor: Self.requests, labels: labels),
            latency: registry.makeDurationHistogram(
                descriptor: Self.duration, labels: labels, buckets: Self.latencyBuckets))
        series.withLock { $0[key] = made }
        return made
    }

    // Computed: the descriptor type is not Sendable, and it is only needed for a new series.
    private static var requests: MetricNameDescriptor {
        MetricNameDescriptor(
            namespace: "livery", metricName: "http_requests", unitName: "total", helpText: "HTTP requests answered.")
    }

    private static var duration: MetricNameDescriptor {
        MetricNameDescriptor(
            namespace: "livery", metricName: "http_request_duration", unitName: "seconds",
            helpText: "Time to the response head.")
    }

    private static let latencyBuckets: [Duration] = [
        .milliseconds(1), .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50),
        .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(5), .seconds(30),
    ]
}
