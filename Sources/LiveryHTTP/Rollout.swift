/// A staged rollout as the version signal carries it: a candidate version served to a stable
/// share of clients (the cohort) while every other client stays on the stable version.
///
/// Who is in the cohort is one function, ``includes(instance:)``, which every daemon and every
/// client computes alike:
///
/// ```
/// bucket = UInt64(big-endian, first 8 bytes of SHA-256(UTF-8 "<rollout id>:<instance>")) % 10_000
/// in the cohort ⇔ bucket < percent × 100
/// ```
///
/// `instance` is the client's ``ClientIdentity/instance``. The share is kept in basis points
/// (0.01 % steps), so raising it only adds clients and lowering it only removes the last added.
public struct Rollout: Codable, Hashable, Sendable {
    /// Where a rollout stands.
    public enum State: String, Codable, Hashable, Sendable {
        /// The cohort gets the candidate.
        case running
        /// The candidate was withdrawn: everyone is on the stable version.
        case aborted
        /// The candidate became the stable version.
        case completed
    }

    /// The number of buckets: the share's resolution is one bucket, 0.01 %.
    public static let buckets = 10_000

    /// Names the rollout; part of the cohort's hash, so each rollout draws its own cohort.
    public var id: String
    /// The share of clients in the cohort, in basis points (0…``buckets``).
    public var basisPoints: Int
    /// The version everyone outside the cohort gets, as an `ETag` shows it (quoted).
    public var stable: String
    /// The version the cohort gets, as an `ETag` shows it (quoted).
    public var candidate: String
    /// Where the rollout stands.
    public var state: State

    /// Creates a rollout; `basisPoints` is clamped to 0…``buckets``.
    public init(id: String, basisPoints: Int, stable: String, candidate: String, state: State = .running) {
        self.id = id
        self.basisPoints = min(max(basisPoints, 0), Self.buckets)
        self.stable = stable
        self.candidate = candidate
        self.state = state
    }

    /// The bucket of `instance` in the rollout `id` (0…9,999).
    public static func bucket(id: String, instance: String) -> Int {
        let digest = SHA256.digest("\(id):\(instance)".utf8)
        let value = digest.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return Int(value % UInt64(buckets))
    }

    /// Whether the client `instance` is in the cohort at the current share.
    public func includes(instance: String) -> Bool {
        Self.bucket(id: id, instance: instance) < basisPoints
    }

    /// The version `instance` should apply: in a running rollout, the candidate in the cohort and
    /// the stable version outside it (and for a client without an identity, `nil`); the candidate
    /// once completed (while the daemons catch up with the new stable version); the stable
    /// version once aborted.
    public func version(for instance: String?) -> String {
        switch state {
        case .running: instance.map(includes(instance:)) == true ? candidate : stable
        case .completed: candidate
        case .aborted: stable
        }
    }

    /// The share as a percentage, such as `12.5`.
    public var percent: Double { Double(basisPoints) / 100 }

    /// The share as people write it: `10%`, `12.5%`, `0.01%`.
    public var percentText: String { Self.percentText(basisPoints) }

    /// `basisPoints` as a percentage with the `%` sign and no trailing zeros.
    public static func percentText(_ basisPoints: Int) -> String {
        let whole = basisPoints / 100
        let fraction = basisPoints % 100
        guard fraction != 0 else { return "\(whole)%" }
        let digits = fraction % 10 == 0 ? "\(fraction / 10)" : (fraction < 10 ? "0\(fraction)" : "\(fraction)")
        return "\(whole).\(digits)%"
    }

    /// Reads a share such as `10%`, `10`, `12.5%` or `0.01%` as basis points: at most two
    /// decimals, from 0 to 100. `nil` for anything else.
    public static func basisPoints(parsing text: String) -> Int? {
        var text = Substring(text.trimmingSpaces)
        if text.hasSuffix("%") { text = text.dropLast() }
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let wholeText = parts.first, !wholeText.isEmpty, wholeText.count <= 3,
            wholeText.allSatisfy(\.isASCIIDigit), let whole = Int(wholeText)
        else { return nil }
        var fraction = 0
        if parts.count == 2 {
            let digits = parts[1]
            guard (1...2).contains(digits.count), digits.allSatisfy(\.isASCIIDigit), let value = Int(digits) else {
                return nil
            }
            fraction = digits.count == 1 ? value * 10 : value
        }
        let points = whole * 100 + fraction
        return points <= buckets ? points : nil
    }

    /// What `/v1/version?since=` compares against while this rollout is in the signal: it changes
    /// with the stable version, the rollout, its share and its state, so a change of any of them
    /// wakes waiters, and the wait that follows is a URL no cache has answered before.
    public var signalTag: String {
        let step =
            switch state {
            case .running: "\(basisPoints)"
            case .completed: "completed"
            case .aborted: "aborted"
            }
        return "\(EntityTag.opaque(of: stable)).\(id).\(step)"
    }
}

extension Rollout {
    private enum CodingKeys: String, CodingKey {
        case id, percent, stable, candidate, state
    }

    /// Reads `{"id", "percent", "stable", "candidate", "state"}`; `percent` is a number such as
    /// `12.5`, read to the nearest basis point.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let percent = try container.decode(Double.self, forKey: .percent)
        guard percent.isFinite, (0...100).contains(percent) else {
            throw DecodingError.dataCorruptedError(
                forKey: .percent, in: container, debugDescription: "percent must be from 0 to 100, not \(percent)")
        }
        self.init(
            id: try container.decode(String.self, forKey: .id), basisPoints: Int((percent * 100).rounded()),
            stable: try container.decode(String.self, forKey: .stable),
            candidate: try container.decode(String.self, forKey: .candidate),
            state: try container.decode(State.self, forKey: .state))
    }

    /// Writes `{"id", "percent", "stable", "candidate", "state"}`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(percent, forKey: .percent)
        try container.encode(stable, forKey: .stable)
        try container.encode(candidate, forKey: .candidate)
        try container.encode(state, forKey: .state)
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
