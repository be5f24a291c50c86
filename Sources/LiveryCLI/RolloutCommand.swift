import ArgumentParser
import Foundation
import LiveryServer
import LiveryTUF

/// `livery rollout [set P% | abort | complete]`: shows or changes the staged rollout of a
/// running `livery serve` (started by `livery push FILES --rollout P%`).
struct RolloutCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rollout",
        abstract: "Show the running rollout, change its share, abort it or complete it.",
        discussion: """
            livery rollout              the rollout and its cohort's counts (exit 0 and "no rollout has run"
                                        when none ever ran on the daemon)
            livery rollout set 25%      widen (or narrow) the share; raising it only adds clients
            livery rollout set 25% --at 2026-12-02T18:00:00Z
                                        the same at that time (livery schedule lists it)
            livery rollout abort        withdraw the candidate: every client returns to the stable version
            livery rollout complete     publish the candidate as the stable version

            With a daemon started with --offline-targets, set, abort and complete take --sign-with KEY:
            the targets the daemon publishes after the change, derived from its current targets (which
            must be signed with KEY) with the rollout's share changed, the candidate withdrawn, or the
            candidate made the stable version, signed one version past them.
            """
    )

    @Argument(help: "set, abort or complete; nothing shows the rollout.")
    var action: String?

    @Argument(help: "With set: the new share, such as 25% or 0.5%.")
    var share: String?

    @Option(help: "The daemon's base URL.")
    var server = "http://127.0.0.1:7878"

    @OptionGroup var environment: EnvironmentOption

    @OptionGroup var approval: ApprovalOption

    @Option(help: "The push token file (default: where livery serve writes it, \(TokenFile.defaultLocation().path)).")
    var tokenFile: String?

    @Option(help: "Change the rollout only if it is still this one (its id, sent as If-Match).")
    var id: String?

    @Option(name: .shortAndLong, help: "Why: recorded as the abort's reason or the completion's message.")
    var message: String?

    @Option(help: "With set: change the share at this time (RFC 3339, such as 2026-12-02T18:00:00Z) instead of now.")
    var at: String?

    @Option(
        help:
            "Sign the targets metadata the change publishes with this targets key file, for a daemon started with --offline-targets."
    )
    var signWith: String?

    func validate() throws {
        guard URL(string: server)?.host != nil else { throw ValidationError("--server '\(server)' is not a URL") }
        switch action {
        case nil:
            if share != nil { throw ValidationError("a share goes with set: livery rollout set \(share ?? "")") }
        case "set":
            guard let share else { throw ValidationError("set needs a share: livery rollout set 25%") }
            guard Rollout.basisPoints(parsing: share) != nil else {
                throw ValidationError("'\(share)' is not a share from 0% to 100% with at most two decimals")
            }
            if let at, ScheduleTime.date(parsing: at) == nil {
                throw ValidationError("--at '\(at)' is not an RFC 3339 time such as 2026-12-02T18:00:00Z")
            }
        case "abort", "complete":
            if share != nil { throw ValidationError("\(action ?? "") takes no share") }
            if at != nil { throw ValidationError("--at goes with set: livery rollout set 25% --at TIME") }
        case let other?:
            throw ValidationError("unknown action '\(other)': use set P%, abort or complete")
        }
        if signWith != nil, action == nil { throw ValidationError("--sign-with goes with set, abort or complete") }
        if signWith != nil, at != nil {
            throw ValidationError(
                "--sign-with signs the targets of a change made now; a daemon with offline targets takes no scheduled share change: run livery rollout set P% --sign-with KEY at the time"
            )
        }
    }

    func run() async throws {
        let tokenURL = tokenFile.map { URL(filePath: $0) } ?? TokenFile.defaultLocation()
        let call: DaemonCall
        let outcome: DaemonCall.Outcome
        if let at, let share {
            call = DaemonCall(
                server: server, token: try TokenFile.read(tokenURL), action: "rollout set --at",
                environment: environment.environment, bypassApproval: approval.bypassApproval)
            let body = DaemonCall.ScheduleBody(action: "rollout", at: at, message: message, percent: share)
            switch try await call.schedule(body, ifMatch: id) {
            case .ok(let answer):
                try ScheduleSummary.printPlanned(answer)
                return
            case .held(let body):
                print(ApprovalOption.heldText(body))
                return
            case .refused(let lines):
                outcome = .refused(lines)
            }
        } else if let action {
            call = DaemonCall(
                server: server, token: try TokenFile.read(tokenURL), action: "rollout \(action)",
                environment: environment.environment, bypassApproval: approval.bypassApproval)
            var body: [String: String] = ["action": action]
            if let share { body["percent"] = share }
            if let message { body[action == "abort" ? "reason" : "message"] = message }
            var headers = id.map { [("If-Match", $0)] } ?? []
            if let signWith {
                let step: TUFTargets.RolloutStep =
                    switch action {
                    case "set": .share(share.flatMap(Rollout.basisPoints(parsing:)) ?? 0)
                    case "abort": .abort
                    default: .complete
                    }
                headers.append(
                    try await OfflineSigning(key: try KeyFile.read(URL(filePath: signWith)), call: call)
                        .sign(step, now: Date()))
            }
            outcome = try await call.send(
                post: true, "/v1/rollout", json: try JSONEncoder().encode(body), headers: headers)
        } else {
            // Reading needs a token only when the daemon has a read token; the push token opens it.
            // The default token is optional here, but a --token-file the user named must be read.
            let token = try tokenFile == nil ? try? TokenFile.read(tokenURL) : TokenFile.read(tokenURL)
            call = DaemonCall(server: server, token: token, action: "rollout", environment: environment.environment)
            // Asking for the state is not refused when there is none: that is the state.
            guard let shown = try await call.read("/v1/rollout", absentKind: .noRollout) else {
                print("no rollout has run on \(server); start one with livery push FILES --rollout P%")
                return
            }
            outcome = shown
        }
        switch outcome {
        case .ok(let body):
            print(try RolloutSummary.decoded(from: body).text)
        case .held(let body):
            print(ApprovalOption.heldText(body))
        case .refused(let lines):
            for line in lines { PushCommand.complain(line) }
            throw ExitCode(1)
        }
    }
}
