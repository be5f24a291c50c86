import ArgumentParser
import Foundation
import LiveryServer
import NIOHTTP1

/// `livery schedule [list | cancel ID]`: the changes a running `livery serve` makes at set
/// times (planned by `livery push --at`, `livery push --rollout … --every`, `livery rollout set
/// --at`), and their cancellation.
struct ScheduleCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schedule",
        abstract: "List the scheduled changes (planned, done, missed, cancelled) or cancel one.",
        discussion: """
            livery schedule             every scheduled change with its steps, the daemon's time first
            livery schedule cancel ID   cancel a planned change: its steps not yet run never will
            """
    )

    @Argument(help: "list (the default) or cancel.")
    var action = "list"

    @Argument(help: "With cancel: the id of the change.")
    var id: String?

    @Option(help: "The daemon's base URL.")
    var server = "http://127.0.0.1:7878"

    @OptionGroup var environment: EnvironmentOption

    @Option(help: "The push token file (default: where livery serve writes it, \(TokenFile.defaultLocation().path)).")
    var tokenFile: String?

    func validate() throws {
        guard URL(string: server)?.host != nil else { throw ValidationError("--server '\(server)' is not a URL") }
        switch action {
        case "list":
            if let id { throw ValidationError("list takes no id; to cancel: livery schedule cancel \(id)") }
        case "cancel":
            guard let id, !id.isEmpty, id.allSatisfy(\.isHexDigit) else {
                throw ValidationError("cancel needs the id of a change, as livery schedule lists it")
            }
        default:
            throw ValidationError("unknown action '\(action)': use list or cancel ID")
        }
    }

    func run() async throws {
        let tokenURL = tokenFile.map { URL(filePath: $0) } ?? TokenFile.defaultLocation()
        let outcome: DaemonCall.Outcome
        if action == "cancel", let id {
            let call = DaemonCall(
                server: server, token: try TokenFile.read(tokenURL), action: "schedule cancel",
                environment: environment.environment)
            outcome = try await call.send(method: .DELETE, "/v1/schedule/\(id)")
        } else {
            // Reading needs a token only when the daemon has a read token; the push token opens it,
            // read from the default place when it is there.
            let readable = tokenFile != nil || FileManager.default.fileExists(atPath: tokenURL.path)
            let token = readable ? try TokenFile.read(tokenURL) : nil
            outcome = try await DaemonCall(
                server: server, token: token, action: "schedule", environment: environment.environment
            ).send("/v1/schedule")
        }
        switch outcome {
        case .ok(let body) where action == "cancel":
            let change = try JSONDecoder().decode(ScheduleSummary.Change.self, from: body)
            print(change.lines.joined(separator: "\n"))
        case .ok(let body):
            let schedule = try JSONDecoder().decode(ScheduleSummary.self, from: body)
            print("daemon time \(schedule.now)")
            if schedule.changes.isEmpty { print("nothing scheduled") }
            for change in schedule.changes { print(change.lines.joined(separator: "\n")) }
        case .held(let body):
            print(ApprovalOption.heldText(body))
        case .refused(let lines):
            for line in lines { PushCommand.complain(line) }
            throw ExitCode(1)
        }
    }
}
