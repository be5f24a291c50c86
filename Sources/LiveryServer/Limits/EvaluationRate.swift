import Synchronization

/// The OpenFeature evaluations (OFREP's `POST …/ofrep/v1/evaluate/flags…`) each peer address
/// may ask for: a token bucket per address that holds one second's worth
/// (``DaemonConfiguration/maxEvaluationsPerPeer``) and fills again at that rate. Unlike a
/// bundle poll (a pre-built 304 on the raw path), every evaluation reads a body and writes an
/// answer through the router, and a server-side provider posts one per flag it reads, so one
/// address could otherwise take the daemon's time from every other client.
final class EvaluationRate: Sendable {
    /// Evaluations a second, and in one burst, for one address.
    let perSecond: Int
    private let now: @Sendable () -> ContinuousClock.Instant
    private let state = Mutex(State())

    private struct State {
        var buckets: [String: Bucket] = [:]
        /// The bucket count at which the full ones are dropped.
        var pruneAt = EvaluationRate.smallestPrune
    }

    private struct Bucket {
        var tokens: Double
        var at: ContinuousClock.Instant
    }

    /// Buckets kept before the first pruning: a bucket left alone for a second is full, and
    /// a full bucket is the same as none, so pruning drops the idle ones.
    private static let smallestPrune = 1024

    /// A bucket per address of `perSecond` evaluations, read on the clock `now` (the daemon's
    /// continuous clock; a test's, moved by hand).
    init(perSecond: Int, now: @escaping @Sendable () -> ContinuousClock.Instant) {
        self.perSecond = perSecond
        self.now = now
    }

    /// Takes an evaluation for `peer`; `false` if its bucket is empty. A bucket fills by at
    /// least one evaluation a second, so a refused peer may evaluate again within a second.
    func take(_ peer: String) -> Bool {
        let time = now()
        let rate = Double(perSecond)
        return state.withLock { state in
            var bucket = state.buckets[peer] ?? Bucket(tokens: rate, at: time)
            bucket.tokens = Self.level(of: bucket, at: time, rate: rate)
            bucket.at = max(bucket.at, time)
            let allowed = bucket.tokens >= 1
            if allowed { bucket.tokens -= 1 }
            state.buckets[peer] = bucket
            if state.buckets.count >= state.pruneAt { Self.prune(&state, at: time, rate: rate) }
            return allowed
        }
    }

    /// What `bucket` holds at `time`: what it held, and what the time since filled, up to a
    /// second's worth. A clock read out of order adds nothing.
    private static func level(of bucket: Bucket, at time: ContinuousClock.Instant, rate: Double) -> Double {
        guard time > bucket.at else { return bucket.tokens }
        let elapsed = bucket.at.duration(to: time) / .seconds(1)
        return min(rate, bucket.tokens + elapsed * rate)
    }

    /// Drops the buckets that are full by now; the next pruning waits until there are twice as
    /// many as are left, so that pruning costs a constant per evaluation however many addresses
    /// come and go.
    private static func prune(_ state: inout State, at time: ContinuousClock.Instant, rate: Double) {
        state.buckets = state.buckets.filter { level(of: $0.value, at: time, rate: rate) < rate }
        state.pruneAt = max(Self.smallestPrune, 2 * state.buckets.count)
    }

    /// Addresses with a bucket now (full ones may not be dropped yet).
    var trackedPeers: Int { state.withLock { $0.buckets.count } }
}
