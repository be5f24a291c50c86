import ArgumentParser
import Foundation
import LiveryServer

/// `livery changes [list | show ID | approve ID | reject ID]`: the change requests of a
/// protected environment (`GET …/changes`, `POST …/changes/{id}/approve` and `…/reject`).
struct ChangesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "changes",
        abstract: "List, show, approve or reject the change requests of a protected environment.",
        discussion: """
            livery changes list --environment production          each request: id, state, author, approvals
            livery changes show 3 --environment production        its files, and what it would change
            livery changes approve 3 --environment production -m "looks right"   needs an approve key,
                                                                  never the author's; the last approval applies it
            livery changes reject 3 --environment production -m "not this week"
            """
    )

    @Argument(help: "list, show, approve or reject; nothing lists.")
    var action = "list"

    @Argument(help: "With show, approve and reject: the change request's id.")
    var id: Int?

    @Option(name: .shortAndLong, help: "With approve and reject: why; kept with the review.")
    var message: String?

    @OptionGroup var environment: EnvironmentOption

    @Option(help: "The daemon's base URL.")
    var server = "http://127.0.0.1:7878"

    @Option(
        help:
            "A file holding the key (an approve key to approve or reject; default: the push token livery serve writes, \(TokenFile.defaultLocation().path))."
    )
    var tokenFile: String?

    func validate() throws {
        guard URL(string: server)?.host != nil else { throw ValidationError("--server '\(server)' is not a URL") }
        switch action {
        case "list":
            guard id == nil, message == nil else { throw ValidationError("list takes no id nor --message") }
        case "show":
            guard id != nil else { throw ValidationError("show needs an id: livery changes show 3") }
            guard message == nil else { throw ValidationError("show takes no --message") }
        case "approve", "reject":
            guard let id, id > 0 else { throw ValidationError("\(action) needs an id: livery changes \(action) 3") }
        default:
            throw ValidationError("unknown action '\(action)': use list, show, approve or reject")
        }
    }

    func run() async throws {
        let token = try TokenFile.read(tokenFile.map { URL(filePath: $0) } ?? TokenFile.defaultLocation())
        let call = DaemonCall(
            server: server, token: token, action: "changes \(action)", environment: environment.environment)
        let path = "/v1/changes" + (id.map { "/\($0)" } ?? "")
        let outcome: DaemonCall.Outcome
        switch action {
        case "approve", "reject":
            let body = try JSONEncoder().encode(["message": message ?? ""])
            outcome = try await call.send(post: true, path + "/" + action, json: body)
        default:
            outcome = try await call.send(path)
        }
        guard case .ok(let body) = outcome else {
            if case .refused(let lines) = outcome { for line in lines { PushCommand.complain(line) } }
            throw ExitCode(1)
        }
        if action == "list" {
            let list = try JSONDecoder().decode(ChangeListing.self, from: body)
            let approvals = list.protection.approvals
            print(
                approvals == 0
                    ? "not protected" : "protected: \(approvals) approval\(approvals == 1 ? "" : "s") per change")
            for change in list.changes { print(change.line) }
        } else {
            print(try JSONDecoder().decode(ChangeListing.Change.self, from: body).text)
        }
    }
}

/// `GET /v1/changes` as the command reads it.
struct ChangeListing: Decodable {
    struct Protection: Decodable {
        var approvals: Int
    }

    struct Review: Decodable {
        var by: String
        var time: String
        var message: String
    }

    struct Preview: Decodable {
        struct Identifier: Decodable {
            var identifier: String
        }

        var added: [String]
        var changed: [String]
        var removed: [String]
        var identifiers: [Identifier]
    }

    struct Change: Decodable {
        var id: Int
        var action: String
        var state: String
        var paths: [String]
        var author: String
        var message: String
        var time: String
        var required: Int
        var approvals: [Review]
        var rejection: Review?
        var revision: Int64?
        /// What a schedule plans once approved.
        var plan: ScheduleSummary.Change?
        var preview: Preview?
        var previewProblem: String?

        /// One line of the list.
        var line: String {
            "\(id)  \(state)  \(action)  by \(author)  \(approvals.count)/\(required) approvals  \(time)  \(message)"
        }

        /// What `show`, `approve` and `reject` print.
        var text: String {
            var lines = [line]
            lines += approvals.map {
                "  approved by \($0.by) at \($0.time)" + ($0.message.isEmpty ? "" : ": \($0.message)")
            }
            if let rejection {
                lines.append(
                    "  rejected by \(rejection.by) at \(rejection.time)"
                        + (rejection.message.isEmpty ? "" : ": \(rejection.message)"))
            }
            if let revision { lines.append("  applied as revision \(revision)") }
            if let plan {
                lines += ["  plans (approved before its first step, or never run):"] + plan.lines.map { "  " + $0 }
            }
            if let preview {
                lines +=
                    preview.added.map { "  + \($0)" } + preview.changed.map { "  ~ \($0)" }
                    + preview.removed.map { "  - \($0)" }
                lines += preview.identifiers.map { "  identifier \($0.identifier) changes" }
            } else if state == "pending" {
                lines += paths.map { "  \($0)" }
            }
            if let previewProblem { lines.append("  no preview: \(previewProblem)") }
            return lines.joined(separator: "\n")
        }
    }

    var protection: Protection
    var changes: [Change]
}
