import ArgumentParser
import Foundation
import LiveryServer

/// `livery history`: the publishes of a daemon on etcd, newest first.
struct HistoryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "List the publishes of a livery serve on etcd (revision, time, key, paths, message)."
    )

    @Option(help: "The daemon's base URL.")
    var server = "http://127.0.0.1:7878"

    @OptionGroup var readToken: ReadTokenOption

    @Option(help: "The most publishes to list.")
    var limit = 20

    func validate() throws {
        guard limit > 0 else { throw ValidationError("--limit must be positive") }
        guard URL(string: server)?.host != nil else { throw ValidationError("--server '\(server)' is not a URL") }
    }

    func run() async throws {
        switch try await DaemonCall(server: server, token: try readToken.token(), action: "history").send(
            "/v1/history?limit=\(limit)")
        {
        case .ok(let body):
            let list = try JSONDecoder().decode(HistoryPage.self, from: body)
            for entry in list.entries {
                let message = entry.message.isEmpty ? "" : "  \(entry.message)"
                let by = entry.by.isEmpty ? "" : "  by \(entry.by)"
                print("\(entry.revision)  \(entry.time)\(by)  \(entry.paths.joined(separator: ", "))\(message)")
            }
        case .refused(let lines):
            for line in lines { PushCommand.complain(line) }
            throw ExitCode(1)
        }
    }

    private struct HistoryPage: Decodable {
        var entries: [HistoryEntry]
    }
}
