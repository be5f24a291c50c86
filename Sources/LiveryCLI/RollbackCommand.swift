import ArgumentParser
import Foundation
import LiveryServer

/// `livery rollback REVISION`: publishes the specs as they were at a revision again.
struct RollbackCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rollback",
        abstract: "Publish the specs as they were at a revision of the history again, as a new, validated publish."
    )

    @Argument(help: "The revision to go back to (see livery history).")
    var revision: Int64

    @Option(help: "The daemon's base URL.")
    var server = "http://127.0.0.1:7878"

    @OptionGroup var environment: EnvironmentOption

    @OptionGroup var approval: ApprovalOption

    @Option(help: "The push token file (default: where livery serve writes it, \(TokenFile.defaultLocation().path)).")
    var tokenFile: String?

    func validate() throws {
        guard revision > 0 else { throw ValidationError("the revision must be positive") }
        guard URL(string: server)?.host != nil else { throw ValidationError("--server '\(server)' is not a URL") }
    }

    func run() async throws {
        let token = try TokenFile.read(tokenFile.map { URL(filePath: $0) } ?? TokenFile.defaultLocation())
        switch try await DaemonCall(
            server: server, token: token, action: "rollback", environment: environment.environment,
            bypassApproval: approval.bypassApproval
        ).send(
            post: true, "/v1/history/\(revision)/restore")
        {
        case .ok(let body):
            let result = try JSONDecoder().decode(PublishResult.self, from: body)
            let at = result.revision.map { "as revision \($0)" } ?? "(nothing to change)"
            print(
                "restored revision \(revision) \(at): \(result.paths.joined(separator: ", ")) (bundle ETag \(result.etag))"
            )
        case .held(let body):
            print(ApprovalOption.heldText(body))
        case .refused(let lines):
            for line in lines { PushCommand.complain(line) }
            throw ExitCode(1)
        }
    }
}
