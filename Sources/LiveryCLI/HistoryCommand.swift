import ArgumentParser
import Foundation
import LiveryServer

/// `livery history`: the publishes of a daemon and its records' steps, newest first.
struct HistoryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract:
            "List the history of a livery serve (revision, time, who, paths, message): its publishes, and with no paths the steps of its change requests, rollouts and schedule."
    )

    @Option(help: "The daemon's base URL.")
    var server = "http://127.0.0.1:7878"

    @OptionGroup var environment: EnvironmentOption

    @OptionGroup var readToken: ReadTokenOption

    @Option(help: "The most publishes to list.")
    var limit = 20

    func validate() throws {
        guard limit > 0 else { throw ValidationError("--limit must be positive") }
        guard URL(string: server)?.host != nil else { throw ValidationError("--server '\(server)' is not a URL") }
    }

    func run() async throws {
        switch try await DaemonCall(
            server: server, token: try readToken.token(), action: "history", environment: environment.environment
        ).send(
            "/v1/history?limit=\(limit)")
        {
        case .ok(let body):
            let list = try JSONDecoder().decode(HistoryPage.self, from: body)
            for entry in list.entries {
                let message = entry.message.isEmpty ? "" : "  \(entry.message)"
                print("\(entry.revision)  \(entry.time)  \(entry.by)  \(entry.paths.joined(separator: ", "))\(message)")
            }
        case .held(let body):
            print(ApprovalOption.heldText(body))
        case .refused(let lines):
            for line in lines { PushCommand.complain(line) }
            throw ExitCode(1)
        }
    }

    private struct HistoryPage: Decodable {
        var entries: [HistoryEntry]
    }
}
