/// A share as a request gives it: a number of percent (`25`, `12.5`) or text (`"25%"`), read by
/// ``Rollout/basisPoints(parsing:)``. The bodies of `POST /v1/specs`, `POST /v1/rollout` and
/// `POST …/promotions` and the `rollout` query parameter carry one.
@_spi(LiveryInternal) public struct RolloutShare: Decodable, Sendable, Equatable {
    /// The share in basis points, from 0 to 10,000.
    public var basisPoints: Int

    /// The share of a `?rollout=` query parameter (`10%`, `12.5`); `nil` when it is not one.
    public init?(query text: String) {
        guard let points = Rollout.basisPoints(parsing: text) else { return nil }
        basisPoints = points
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text: String
        do {
            // A whole number prints with `.0`, which a share's text has no place for.
            let number = String(try container.decode(Double.self))
            text = number.hasSuffix(".0") ? String(number.dropLast(2)) : number
        } catch DecodingError.typeMismatch {
            text = try container.decode(String.self)  // not a number: the share as text
        }
        guard let points = Rollout.basisPoints(parsing: text) else {
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription: "a share is a percentage from 0 to 100 with at most two decimals, not \(text)")
        }
        basisPoints = points
    }
}
