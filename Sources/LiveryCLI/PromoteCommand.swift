import ArgumentParser
import Foundation
import Livery
@_spi(LiveryInternal) import LiveryHTTP
import LiveryServer
import LiveryTUF

/// `livery promote FROM TO`: makes environment TO's files exactly FROM's at one version, or with
/// `--dry-run` says what that would change; with `--at`, the daemon does it at that time, with
/// FROM's files as they are now.
struct PromoteCommand: RegistryCommand {
    static let configuration = CommandConfiguration(
        commandName: "promote",
        abstract: "Make one environment's files exactly another's (its newest revision, or --revision N).",
        discussion: """
            livery promote staging production              publish staging's newest revision in production
            livery promote staging production --dry-run    the files added, changed and removed, and the
                                                           identifiers whose resolved traits would change
            livery promote staging production --rollout 10%   a staged rollout of it in production instead
            livery promote staging production --at 2026-12-02T18:00:00Z
                                                           staging's newest revision, read now, published in
                                                           production at that time (livery schedule lists it)

            With a daemon started with --offline-targets, --sign-with KEY builds the promoted version from
            FROM's files as they are now (so not with --revision) and signs its targets (with --rollout, the
            rollout's); with --at, signed now and checked at that time.
            """
    )

    @Argument(help: "The environment the files come from.")
    var from: String

    @Argument(help: "The environment whose files become FROM's.")
    var to: String

    @Option(help: "FROM's revision (see livery history --environment FROM); default: its newest.")
    var revision: Int64?

    @Option(help: "Start a staged rollout of this share in TO instead of publishing, such as 10%.")
    var rollout: String?

    @Option(name: .shortAndLong, help: "Why; recorded in TO's history after 'promoted from FROM at revision N'.")
    var message: String?

    @Option(help: "Promote only if TO's bundle still has this ETag (sent as If-Match).")
    var ifMatch: String?

    @Flag(help: "Show what the promotion would change; change nothing.")
    var dryRun = false

    @Option(
        help:
            "Promote at this time (RFC 3339, such as 2026-12-02T18:00:00Z): FROM's files are read and validated now and kept by the daemon until then."
    )
    var at: String?

    @Option(
        help:
            "Sign the targets metadata of the version the promotion makes (or of the rollout it starts) with this targets key file, for a daemon started with --offline-targets."
    )
    var signWith: String?

    @OptionGroup var approval: ApprovalOption

    @Option(help: "The daemon's base URL.")
    var server = "http://127.0.0.1:7878"

    @Option(help: "The push token file (default: where livery serve writes it, \(TokenFile.defaultLocation().path)).")
    var tokenFile: String?

    func validate() throws {
        for name in [from, to] where !EnvironmentPath.isValidName(name) {
            throw ValidationError("'\(name)' is not an environment name ([a-z][a-z0-9-]{0,62})")
        }
        guard from != to else { throw ValidationError("FROM and TO are the same environment '\(from)'") }
        if let revision, revision < 1 { throw ValidationError("--revision must be positive") }
        if let rollout, Rollout.basisPoints(parsing: rollout) == nil {
            throw ValidationError("--rollout '\(rollout)' is not a share from 0% to 100% with at most two decimals")
        }
        if let at {
            guard ScheduleTime.date(parsing: at) != nil else {
                throw ValidationError("--at '\(at)' is not an RFC 3339 time such as 2026-12-02T18:00:00Z")
            }
            if dryRun { throw ValidationError("--dry-run shows a promotion made now; leave out --at") }
            if rollout != nil {
                throw ValidationError(
                    "--at schedules a publish, not a rollout: schedule a progressive rollout (livery push FILE... --rollout 1%,…,100% --every 30m), or run livery promote --rollout at the time"
                )
            }
            if ifMatch != nil {
                throw ValidationError("--if-match applies to a promotion made now, not a scheduled one")
            }
        }
        if signWith != nil, revision != nil {
            throw ValidationError(
                "--sign-with builds the version from FROM's files as they are now, which are its newest revision: leave out --revision"
            )
        }
        if signWith != nil, dryRun { throw ValidationError("--dry-run changes nothing to sign; leave out --sign-with") }
        guard URL(string: server)?.host != nil else { throw ValidationError("--server '\(server)' is not a URL") }
    }

    func run(registry: TraitRegistry) async throws {
        let token = try TokenFile.read(tokenFile.map { URL(filePath: $0) } ?? TokenFile.defaultLocation())
        if let at { return try await schedule(at: at, token: token, registry: registry) }
        let call = DaemonCall(
            server: server, token: token, action: dryRun ? "promotion preview" : "promotion",
            bypassApproval: approval.bypassApproval)
        let outcome: DaemonCall.Outcome
        if dryRun {
            let query = "?from=\(from)" + (revision.map { "&revision=\($0)" } ?? "")
            outcome = try await call.send(EnvironmentPath.path("/v1/promotions/preview", environment: to) + query)
        } else {
            var body: [String: String] = ["from": from]
            if let rollout { body["rollout"] = rollout }
            if let message { body["message"] = message }
            var headers = ifMatch.map { [("If-Match", $0)] } ?? []
            if let signed = try await sign(call, registry: registry) { headers += signed.headers(ifMatch: ifMatch) }
            outcome = try await call.send(
                post: true, EnvironmentPath.path("/v1/promotions", environment: to),
                json: try Self.json(body, revision: revision), headers: headers)
        }
        switch outcome {
        case .ok(let body) where dryRun:
            print(try JSONDecoder().decode(Preview.self, from: body).text)
        case .ok(let body) where rollout != nil:
            print(try RolloutSummary.decoded(from: body).text)
        case .ok(let body):
            let result = try JSONDecoder().decode(PublishResult.self, from: body)
            let paths = result.paths.isEmpty ? "nothing changed" : result.paths.joined(separator: ", ")
            print(
                "promoted \(from) to \(to): \(result.etag)\(result.revision.map { " (revision \($0))" } ?? ""); \(paths)"
            )
        case .held(let body):
            print(ApprovalOption.heldText(body))
        case .refused(let lines):
            for line in lines { PushCommand.complain(line) }
            throw ExitCode(1)
        }
    }

    /// Plans the promotion in TO's schedule (`POST …/schedule`) and prints the planned change.
    private func schedule(at: String, token: BearerToken, registry: TraitRegistry) async throws {
        let call = DaemonCall(
            server: server, token: token, action: "scheduled promotion", environment: to,
            bypassApproval: approval.bypassApproval)
        let body = DaemonCall.ScheduleBody(
            action: "promotion", at: at, message: message, from: from, revision: revision)
        // A scheduled promotion depends on nothing now: its signed targets name what it makes.
        let signed = try await sign(call, registry: registry)?.targets
        try ScheduleSummary.report(try await call.schedule(body, headers: signed.map { [$0] } ?? []))
    }

    /// With `--sign-with`, the signed targets of the promotion into TO (`call`'s environment or
    /// path) from FROM's files as they are now.
    private func sign(_ call: DaemonCall, registry: TraitRegistry) async throws -> OfflineSigning.Signed? {
        guard let signWith else { return nil }
        var target = call
        target.environment = to
        return try await OfflineSigning(
            key: try KeyFile.read(URL(filePath: signWith)), call: target, registry: registry
        )
        .sign(promotingFrom: from, rollout: rollout.flatMap(Rollout.basisPoints(parsing:)), now: Date())
    }

    /// The body, `revision` a number as the daemon expects.
    private static func json(_ body: [String: String], revision: Int64?) throws -> Data {
        var object: [String: Any] = body
        if let revision { object["revision"] = revision }
        return try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
    }

    /// The answer of the preview, as the command prints it.
    private struct Preview: Decodable {
        struct Identifier: Decodable {
            var identifier: String
            var before: [Look]?
            var after: [Look]?
        }

        struct Look: Decodable {
            var theme: String?
            var traits: [String]
        }

        var added: [String]
        var changed: [String]
        var removed: [String]
        var identifiers: [Identifier]

        var text: String {
            var lines = added.map { "+ \($0)" } + changed.map { "~ \($0)" } + removed.map { "- \($0)" }
            for identifier in identifiers {
                let change = identifier.before == nil ? "added" : identifier.after == nil ? "removed" : "changed"
                lines.append("\(identifier.identifier): \(change)")
            }
            return lines.isEmpty ? "nothing would change" : lines.joined(separator: "\n")
        }
    }
}
