package import Foundation

/// The rounds of the version signal (`GET /v1/version?since=…&wait=…`), which let a shared cache
/// answer a whole fleet from one request per round.
///
/// A wait that ends without a change ends on a grid of the wait's length in wall-clock time
/// (every 30 s since the epoch for `wait=30s`), so every daemon ends it at the same instants.
/// Round `R` is the wait that ends at instant `R` of the grid. A `304` names the next round in
/// the `Livery-Round` field, and the client's next wait sends it back as `round=`: each round
/// is a new URL, so a cache holds one request to the daemons per round and queues the fleet
/// behind it, instead of answering later requests for an old URL from a stale entry at once
/// (which would make the fleet ask again and again).
public enum SignalRound {
    /// The response field that names the next round.
    public static let fieldName = "Livery-Round"
    /// The query parameter that sends it back.
    public static let parameterName = "round"

    /// How long a wait of `wait` without a change lasts from `now`: until the instant of the grid
    /// that `round` names when that is still ahead (at most `wait`), else until the grid's next
    /// instant.
    package static func hold(_ wait: Duration, endingAt round: Int64?, now: Date) -> Duration {
        let length = wait.seconds
        guard length > 0 else { return wait }
        let time = now.timeIntervalSince1970
        var end = ((time / length).rounded(.down) + 1) * length
        if let round, Double(round) * length > time { end = Double(round) * length }
        return min(wait, .milliseconds(Int64(((end - time) * 1000).rounded(.up))))
    }

    /// The round to name in the `304` of a wait of `wait` that ended at `now`: the one after the
    /// grid's instant nearest `now`, so that a wait a daemon ended a little early (it spreads its
    /// wake-ups) or late leads to the same next round, and a request for it waits a whole round.
    package static func next(after wait: Duration, endedAt now: Date) -> Int64 {
        let length = wait.seconds
        guard length > 0 else { return 0 }
        return Int64((now.timeIntervalSince1970 / length).rounded()) + 1
    }
}

extension Duration {
    /// The duration in seconds, with its fraction.
    fileprivate var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
