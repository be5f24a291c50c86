import ArgumentParser
import Foundation
import LiveryServer

/// `livery status`: the fleet a daemon serves, from its clients' `Livery-Client` headers.
struct StatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show how many clients of a livery serve are on which version, and which have not converged."
    )

    @Option(help: "The daemon's base URL.")
    var server = "http://127.0.0.1:7878"

    @OptionGroup var environment: EnvironmentOption

    @OptionGroup var readToken: ReadTokenOption

    func validate() throws {
        guard URL(string: server)?.host != nil else { throw ValidationError("--server '\(server)' is not a URL") }
    }

    func run() async throws {
        switch try await DaemonCall(
            server: server, token: try readToken.token(), action: "status", environment: environment.environment
        ).send("/v1/clients")
        {
        case .ok(let body):
            let fleet = try JSONDecoder().decode(FleetStatus.self, from: body)
            for line in fleet.lines { print(line) }
        case .held(let body):
            print(ApprovalOption.heldText(body))
        case .refused(let lines):
            for line in lines { PushCommand.complain(line) }
            throw ExitCode(1)
        }
    }
}

extension FleetStatus {
    /// The report as printed.
    var lines: [String] {
        var lines = ["current \(current ?? "(none loaded)"): \(converged) of \(clients) clients converged"]
        if ofrepReaders > 0 { lines.append("  \(ofrepReaders) of them read through OpenFeature (OFREP)") }
        if !complete {
            lines.append("warning: \(evicted) clients were dropped to make room lately; lagging ones may be missing")
        }
        for version in versions {
            lines.append(
                "  \(version.etag ?? "(nothing applied)")  \(version.clients)\(version.isCurrent ? "  current" : "")"
            )
        }
        if !notConverged.isEmpty { lines.append("not converged:") }
        for client in notConverged {
            let app = client.appVersion.isEmpty ? "" : " \(client.appVersion)"
            let skipped = client.skipped.isEmpty ? "" : "  skipped \(client.skipped.joined(separator: ", "))"
            lines.append(
                "  \(client.name) \(client.instance)\(app)  applied \(client.applied ?? "nothing")  seen \(client.lastSeen)\(skipped)"
            )
        }
        if unlistedNotConverged > 0 { lines.append("  … and \(unlistedNotConverged) more") }
        if !skipped.isEmpty { lines.append("skipped identifiers:") }
        for entry in skipped { lines.append("  \(entry.identifier)  \(entry.clients)") }
        if malformedHeaders > 0 { lines.append("malformed Livery-Client headers: \(malformedHeaders)") }
        return lines
    }
}
