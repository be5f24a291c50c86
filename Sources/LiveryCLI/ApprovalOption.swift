import ArgumentParser
import Foundation

/// `--bypass-approval` on the commands that write: with an `admin` key, a write to a protected
/// environment goes ahead without a change request (the history records that it did).
struct ApprovalOption: ParsableArguments {
    @Flag(
        help:
            "With an admin key: write a protected environment now, without a change request (the history records it)."
    )
    var bypassApproval = false

    /// The header that asks for it, `Livery-Bypass-Approval: true`.
    static let header = (name: "Livery-Bypass-Approval", value: "true")

    /// What a command prints when a protected environment holds its write as a change request
    /// (202): its id and what it waits for.
    static func heldText(_ body: Data) -> String {
        do {
            let change = try JSONDecoder().decode(ChangeListing.Change.self, from: body)
            let approvals = "\(change.required) approval\(change.required == 1 ? "" : "s")"
            guard change.action == "schedule" else {
                return
                    "change request \(change.id) is waiting for \(approvals); nothing is written until then (livery changes show \(change.id))"
            }
            return
                "change request \(change.id) is waiting for \(approvals) before its time; nothing is scheduled until then, and never once its time has passed (livery changes show \(change.id))"
        } catch {
            return "the write is held as a change request; see livery changes list"
        }
    }
}
