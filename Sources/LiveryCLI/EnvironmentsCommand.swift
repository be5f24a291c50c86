import ArgumentParser
import Foundation
@_spi(LiveryInternal) import LiveryHTTP
import LiveryServer
import NIOHTTP1

/// `livery environments [list | create NAME [--from ENV] [--protect] [--approvals N] | delete NAME |
/// protect NAME [--approvals N] | unprotect NAME]`: a daemon's environments (`GET` and `POST
/// /v1/environments`, `DELETE /v1/environments/{env}`, `PUT` and `DELETE …/{env}/protection`).
struct EnvironmentsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "environments",
        abstract:
            "List a livery serve's environments (version and rollout of each), create, delete, protect or unprotect one.",
        subcommands: [List.self, Create.self, Delete.self, Protect.self, Unprotect.self],
        defaultSubcommand: List.self
    )

    /// What every subcommand needs: the daemon and a token.
    struct Connection: ParsableArguments {
        @Option(help: "The daemon's base URL.")
        var server = "http://127.0.0.1:7878"

        @Option(
            help:
                "The push token file, for create and delete (default: where livery serve writes it, \(TokenFile.defaultLocation().path))."
        )
        var tokenFile: String?

        @OptionGroup var readToken: ReadTokenOption

        func validate() throws {
            guard URL(string: server)?.host != nil else { throw ValidationError("--server '\(server)' is not a URL") }
        }

        /// A call of the daemon with the push token (`writes`) or the read token, if any.
        func call(_ action: String, writes: Bool) throws -> DaemonCall {
            let token =
                writes
                ? try TokenFile.read(tokenFile.map { URL(filePath: $0) } ?? TokenFile.defaultLocation())
                : try readToken.token()
            return DaemonCall(server: server, token: token, action: action)
        }
    }

    /// Refuses a name that is no environment name.
    static func check(_ name: String) throws {
        guard EnvironmentPath.isValidName(name) else {
            throw ValidationError("'\(name)' is not an environment name ([a-z][a-z0-9-]{0,62})")
        }
    }

    /// Prints the body of a success, or the refusal and exits 1.
    static func finish(_ outcome: DaemonCall.Outcome, _ success: (Data) throws -> Void) throws {
        switch outcome {
        case .ok(let body):
            try success(body)
        case .held(let body):
            print(ApprovalOption.heldText(body))
        case .refused(let lines):
            for line in lines { PushCommand.complain(line) }
            throw ExitCode(1)
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the environments: name, current ETag, files and rollout; * marks the default one.")

        @OptionGroup var connection: Connection

        func run() async throws {
            let outcome = try await connection.call("environments list", writes: false).send(EnvironmentPath.collection)
            try EnvironmentsCommand.finish(outcome) { body in
                let list = try JSONDecoder().decode(EnvironmentListing.self, from: body)
                for environment in list.environments {
                    let mark = environment.name == list.defaultEnvironment ? "*" : " "
                    let rollout = environment.rollout.map { "  rollout \($0.state) at \($0.percent)%" } ?? ""
                    let errors = environment.errors > 0 ? "  \(environment.errors) errors" : ""
                    print(
                        "\(mark) \(environment.name)  \(environment.etag ?? "(no bundle)")  \(environment.files) files\(errors)\(rollout)"
                    )
                }
            }
        }
    }

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create an environment, empty or holding a copy of another's current files.")

        @Argument(help: "The new environment's name: [a-z][a-z0-9-]{0,62}.")
        var name: String

        @Option(help: ArgumentHelp("Copy this environment's current files into the new one.", valueName: "env"))
        var from: String?

        @Flag(help: "Protect it from the start: each write becomes a change request that another key approves.")
        var protect = false

        @Option(help: "With --protect (which it implies): how many approvals a change request needs.")
        var approvals: Int?

        @OptionGroup var connection: Connection

        func validate() throws {
            for given in [name] + (from.map { [$0] } ?? []) where !EnvironmentPath.isValidName(given) {
                throw ValidationError("'\(given)' is not an environment name ([a-z][a-z0-9-]{0,62})")
            }
            if let approvals { try Protect.check(approvals) }
        }

        func run() async throws {
            var object: [String: Any] = ["name": name]
            if let from { object["from"] = from }
            if protect || approvals != nil { object["approvals"] = approvals ?? 1 }
            let body = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
            let outcome = try await connection.call("environments create", writes: true).send(
                post: true, EnvironmentPath.collection, json: body)
            try EnvironmentsCommand.finish(outcome) { _ in
                print("created environment \(name)" + (from.map { " from \($0)" } ?? ""))
            }
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Delete an environment and its files (never the default one).")

        @Argument(help: "The environment to delete.")
        var name: String

        @OptionGroup var connection: Connection

        func validate() throws {
            try EnvironmentsCommand.check(name)
        }

        func run() async throws {
            let outcome = try await connection.call("environments delete", writes: true).send(
                method: .DELETE, EnvironmentPath.collection + "/" + name)
            try EnvironmentsCommand.finish(outcome) { _ in print("deleted environment \(name)") }
        }
    }
}

extension EnvironmentsCommand {
    struct Protect: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Protect an environment: each write to it (push, delete, promotion, rollout start or completion, restore) becomes a change request, applied once other keys approve it (livery changes)."
        )

        @Argument(help: "The environment to protect.")
        var name: String

        @Option(help: "How many approvals a change request needs.")
        var approvals = 1

        @OptionGroup var connection: Connection

        /// Refuses a count the daemon would refuse.
        static func check(_ approvals: Int) throws {
            guard (1...10).contains(approvals) else {
                throw ValidationError("--approvals \(approvals) must be from 1 to 10")
            }
        }

        func validate() throws {
            try EnvironmentsCommand.check(name)
            try Self.check(approvals)
        }

        func run() async throws {
            let outcome = try await connection.call("environments protect", writes: true).send(
                method: .PUT, EnvironmentPath.path("/v1/protection", environment: name),
                json: try JSONEncoder().encode(["approvals": approvals]))
            try EnvironmentsCommand.finish(outcome) { _ in
                print("protected environment \(name): \(approvals) approval\(approvals == 1 ? "" : "s") per change")
            }
        }
    }

    struct Unprotect: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Unprotect an environment: its writes go ahead at once again.")

        @Argument(help: "The environment to unprotect.")
        var name: String

        @OptionGroup var connection: Connection

        func validate() throws {
            try EnvironmentsCommand.check(name)
        }

        func run() async throws {
            let outcome = try await connection.call("environments unprotect", writes: true).send(
                method: .DELETE, EnvironmentPath.path("/v1/protection", environment: name))
            try EnvironmentsCommand.finish(outcome) { _ in print("unprotected environment \(name)") }
        }
    }
}

/// `GET /v1/environments` as the command reads it.
struct EnvironmentListing: Decodable {
    struct Environment: Decodable {
        struct Rollout: Decodable {
            var state: String
            var percent: Double
        }

        var name: String
        var etag: String?
        var files: Int
        var errors: Int
        var rollout: Rollout?
    }

    var defaultEnvironment: String?
    var environments: [Environment]
}
