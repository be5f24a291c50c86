import Foundation
import LiveryServer

/// A rollout as `GET /v1/rollout` shows it, read by `livery rollout` and `livery push --rollout`.
struct RolloutSummary: Decodable {
    struct Cohort: Decodable {
        var expected: Int
        var applied: Int
        var refused: Int
        var problems: Int
    }

    var id: String
    var percent: Double
    var stable: String
    var candidate: String
    var state: String
    var startedAt: String
    var endedAt: String?
    var message: String
    var abortReason: String?
    var abortWhen: String
    var cohort: Cohort

    static func decoded(from body: Data) throws -> RolloutSummary {
        try JSONDecoder().decode(RolloutSummary.self, from: body)
    }

    /// A few lines for a terminal. The first says who gets which version: a share of clients the
    /// candidate only while the rollout runs; once it ended, every client the one it left.
    var text: String {
        let share = Rollout.percentText(Int((percent * 100).rounded()))
        let now =
            switch Rollout.State(rawValue: state) {
            case .running: "running, \(share) of clients get \(candidate) (stable \(stable))"
            case .aborted:
                "aborted at \(share): candidate \(candidate) withdrawn, every client returned to the stable "
                    + "version \(stable)"
            case .completed:
                "completed at \(share): \(candidate) became the stable version of every client (was \(stable))"
            case nil: "\(state), \(share) of clients, candidate \(candidate), stable \(stable)"
            }
        var lines = [
            "rollout \(id): \(now)",
            "  started \(startedAt)" + (message.isEmpty ? "" : ": \(message)"),
            "  cohort: \(cohort.applied) of \(cohort.expected) clients heard from applied it, "
                + "\(cohort.refused) refused, \(cohort.problems) reported problems (abort when \(abortWhen))",
        ]
        if let endedAt { lines.append("  ended \(endedAt)" + (abortReason.map { ": \($0)" } ?? "")) }
        return lines.joined(separator: "\n")
    }
}
