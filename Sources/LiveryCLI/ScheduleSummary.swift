import ArgumentParser
import Foundation

/// The schedule as `GET /v1/schedule` lists it (and a planned change as `POST /v1/schedule`
/// answers it), read by `livery schedule` and `livery push --at`.
struct ScheduleSummary: Decodable {
    struct Change: Decodable {
        struct Step: Decodable {
            var at: String
            var percent: Double?
            var state: String
            var detail: String?
        }

        var id: String
        var kind: String
        var message: String
        var state: String
        var detail: String?
        var paths: [String]
        var steps: [Step]
        /// A promotion's source and its revision.
        var from: String?
        var revision: Int64?

        /// What the change does: the paths it writes, or where a promotion's files come from.
        var what: String {
            switch kind {
            case "rollout": "rollout share"
            case "promotion": "promotion from \(from ?? "?")" + (revision.map { " at revision \($0)" } ?? "")
            default: "\(kind) \(paths.joined(separator: ", "))"
            }
        }

        /// A line for the change and one for each step.
        var lines: [String] {
            var lines = [
                "\(id)  \(state)  \(what)\(message.isEmpty ? "" : "  \(message)")\(detail.map { "  (\($0))" } ?? "")"
            ]
            for (index, step) in steps.enumerated() {
                let share = step.percent.map { "  \(Self.percentText($0))" } ?? ""
                lines.append("  \(index + 1). \(step.at)\(share)  \(step.state)\(step.detail.map { "  \($0)" } ?? "")")
            }
            return lines
        }

        private static func percentText(_ percent: Double) -> String {
            percent == percent.rounded() ? "\(Int(percent))%" : "\(percent)%"
        }
    }

    var now: String
    var changes: [Change]
}

extension ScheduleSummary {
    /// Prints what `POST /v1/schedule` answered `push`, `promote` and `rollout set` with `--at`:
    /// the change planned, or the change request that holds it; a refusal's lines go to
    /// standard error and end the command (exit 1).
    static func report(_ outcome: DaemonCall.Outcome) throws {
        switch outcome {
        case .ok(let answer): try printPlanned(answer)
        case .held(let body): print(ApprovalOption.heldText(body))
        case .refused(let lines):
            for line in lines { PushCommand.complain(line) }
            throw ExitCode(1)
        }
    }

    /// Prints the change planned (`answer`, the daemon's JSON of it).
    static func printPlanned(_ answer: Data) throws {
        let change = try JSONDecoder().decode(Change.self, from: answer)
        print("scheduled " + change.lines.joined(separator: "\n"))
    }
}
