import LiveryHTTP

/// When the daemon aborts a rollout by itself (`livery serve --abort-when`): once the clients of
/// the cohort that refused the candidate or reported a problem with it reach a count, or a
/// share of the cohort's clients the daemon has heard from (at least those counted).
public enum AbortThreshold: Hashable, Sendable, CustomStringConvertible {
    /// At this many clients (at least 1).
    case count(Int)
    /// At this share of the cohort, in basis points (at least 1).
    case share(basisPoints: Int)

    /// The default: the first refusal or problem.
    public static let first = AbortThreshold.count(1)

    /// Reads `3` (a count) or `5%` (a share, to 0.01 %). `nil` for anything else, zero included.
    public init?(parsing text: String) {
        let text = text.trimmingSpaces
        if text.hasSuffix("%") {
            guard let points = Rollout.basisPoints(parsing: text), points > 0 else { return nil }
            self = .share(basisPoints: points)
        } else {
            guard let count = Int(text), count > 0 else { return nil }
            self = .count(count)
        }
    }

    /// Whether `bad` clients of `expected` heard from in the cohort reach the threshold.
    func isReached(bad: Int, expected: Int) -> Bool {
        switch self {
        case .count(let count): bad >= count
        case .share(let points): bad > 0 && bad * Rollout.buckets >= points * max(expected, 1)
        }
    }

    /// `3` or `5%`.
    public var description: String {
        switch self {
        case .count(let count): "\(count)"
        case .share(let points): Rollout.percentText(points)
        }
    }
}
