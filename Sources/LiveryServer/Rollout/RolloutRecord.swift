import Foundation
package import LiveryHTTP

/// A rollout as the daemon keeps it: the signal's ``LiveryHTTP/Rollout`` and what an operator
/// reads beside it (when it started, why, why it ended), with the candidate's files, so that a
/// restarted daemon serves the same candidate and completing it publishes exactly those files.
struct RolloutRecord: Codable, Hashable, Sendable {
    /// The rollout as the version signal carries it.
    var rollout: Rollout
    /// When it started, ISO 8601.
    var startedAt: String
    /// The author's message.
    var message: String
    /// Why it was aborted, when it was.
    var abortReason: String?
    /// When it was aborted or completed, ISO 8601.
    var endedAt: String?
    /// The candidate's files by path: the whole set the candidate push made.
    var candidateFiles: [String: Data]

    /// The record's rollout with its share changed, or ended as `state` (now, for `reason`).
    func with(basisPoints: Int? = nil, state: Rollout.State? = nil, reason: String? = nil) -> RolloutRecord {
        var record = self
        if let basisPoints { record.rollout.basisPoints = min(max(basisPoints, 0), Rollout.buckets) }
        if let state {
            record.rollout.state = state
            record.endedAt = Date().formatted(.iso8601)
            record.abortReason = reason
        }
        return record
    }
}

extension Rollout {
    /// 16 random hexadecimal digits: a new rollout's id (the daemon's, or the one
    /// `livery push --rollout P% --sign-with` signs), and a scheduled change's.
    package static func newID() -> String {
        let digits = String(UInt64.random(in: .min ... .max), radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
