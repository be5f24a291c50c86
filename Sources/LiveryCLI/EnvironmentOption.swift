import ArgumentParser
import LiveryServer

/// `--environment ENV` on every command that talks to a daemon: its requests go to
/// `/v1/environments/ENV/…` instead of the daemon's default environment.
struct EnvironmentOption: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The environment to address (the daemon's /v1/environments/ENV/…; default: the daemon's default environment).",
            valueName: "env"))
    var environment: String?

    func validate() throws {
        if let environment, !EnvironmentPath.isValidName(environment) {
            throw ValidationError("--environment '\(environment)' is not an environment name ([a-z][a-z0-9-]{0,62})")
        }
    }

    /// The daemon's `/v1/…` route `path` in `environment` (`nil`: the daemon's default one).
    static func path(_ path: String, environment: String?) -> String {
        environment.map { EnvironmentPath.path(path, environment: $0) } ?? path
    }
}
