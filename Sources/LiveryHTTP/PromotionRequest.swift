/// The body of `POST /v1/environments/{to}/promotions`: the environment to promote from, the
/// version (its newest by default: a `revision` or an `etag`, not both), a message for the
/// history, and a share to start a staged rollout at instead of publishing.
@_spi(LiveryInternal) public struct PromotionRequest: Decodable, Sendable {
    public var from: String
    public var revision: Int64?
    public var etag: String?
    public var message: String?
    public var rollout: RolloutShare?
}
