/// How long to wait before retrying after consecutive failures: exponential growth with full
/// jitter, capped.
///
/// After the `n`th failure in a row the ceiling is `min(cap, base × 2^(n-1))` and the delay is
/// drawn uniformly from `0...ceiling` ("full jitter"), so many clients that lost the same server
/// at the same moment do not all come back at the same instant. A success resets the count.
public struct Backoff: Sendable {
    /// The ceiling after the first failure.
    public var base: Duration
    /// The largest ceiling, however many failures in a row.
    public var cap: Duration
    /// Draws a delay from `0...ceiling`. Uniformly random by default; tests inject their own.
    public var jitter: @Sendable (_ ceiling: Duration) -> Duration

    /// Creates a policy.
    ///
    /// - Parameters:
    ///   - base: The ceiling after the first failure; 250 ms by default.
    ///   - cap: The largest ceiling; 30 s by default.
    ///   - jitter: Draws a delay from `0...ceiling`; ``uniformJitter(_:)`` by default.
    public init(
        base: Duration = .milliseconds(250),
        cap: Duration = .seconds(30),
        jitter: @escaping @Sendable (_ ceiling: Duration) -> Duration = Backoff.uniformJitter
    ) {
        self.base = base
        self.cap = cap
        self.jitter = jitter
    }

    /// The ceiling after `failures` failures in a row (at least one): `min(cap, base × 2^(failures-1))`.
    public func ceiling(afterFailures failures: Int) -> Duration {
        var ceiling = base
        var doublings = max(failures, 1) - 1
        // Double step by step rather than shifting, so a long outage cannot overflow.
        while doublings > 0, ceiling < cap {
            ceiling *= 2
            doublings -= 1
        }
        return min(ceiling, cap)
    }

    /// The delay after `failures` failures in a row: the jitter of the ceiling, kept within it.
    public func delay(afterFailures failures: Int) -> Duration {
        let ceiling = ceiling(afterFailures: failures)
        return min(max(jitter(ceiling), .zero), ceiling)
    }

    /// A delay drawn uniformly from `0...ceiling`, at nanosecond resolution.
    @Sendable public static func uniformJitter(_ ceiling: Duration) -> Duration {
        let nanoseconds = ceiling.nanoseconds
        guard nanoseconds > 0 else { return .zero }
        return .nanoseconds(Int64.random(in: 0...nanoseconds))
    }
}

extension Duration {
    /// The duration in whole nanoseconds, saturating at `Int64.max`.
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return seconds < 0 ? .min : .max }
        return scaled.addingReportingOverflow(attoseconds / 1_000_000_000).partialValue
    }

    /// The duration in seconds, as a `Double`.
    var seconds: Double { Double(nanoseconds) / 1e9 }
}
