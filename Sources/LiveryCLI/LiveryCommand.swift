public import ArgumentParser
public import Livery

/// The `livery` command line.
///
/// A program that registers its own trait types builds its own `livery` by running the commands
/// with its registry, so that serving, pushing, validating, watching and the schema all know them:
///
/// ```swift
/// import LiveryCLI
///
/// @main enum MyLivery {
///     static func main() async { await LiveryCommand.main(registry: .myApp) }
/// }
/// ```
public struct LiveryCommand: AsyncParsableCommand {
    /// Subcommands and help.
    public static let configuration = CommandConfiguration(
        commandName: "livery",
        abstract: "Live-reload theming daemon and reversible trait engine.",
        subcommands: [
            DemoCommand.self, ValidateCommand.self, WatchCommand.self, ServeCommand.self, PushCommand.self,
            HistoryCommand.self, RollbackCommand.self, RolloutCommand.self, StatusCommand.self, SchemaCommand.self,
            IdentifiersCommand.self,
            CSSCommand.self,
            TokensCommand.self,
            KeysCommand.self,
            SigningCommand.self,
            ScheduleCommand.self,
            EnvironmentsCommand.self,
            PromoteCommand.self,
            ChangesCommand.self,
        ]
    )

    /// Creates the command (ArgumentParser fills it in).
    public init() {}

    /// Parses the program's arguments (or `arguments`) and runs the command they name with
    /// `registry`: every spec a command reads, serves or accepts is decoded with it, and the
    /// schema lists its trait types. Exits with the command's status, as `main()` does.
    public static func main(registry: TraitRegistry, arguments: [String]? = nil) async {
        do {
            let parsed = try await asyncParseAsRoot(arguments)
            if var command = parsed as? any RegistryCommand {
                try await command.run(registry: registry)
            } else if var command = parsed as? any AsyncParsableCommand {
                try await command.run()
            } else {
                var command = parsed
                try command.run()
            }
        } catch {
            exit(withError: error)
        }
    }
}

/// A subcommand that reads specs, and so needs to know which trait types they may use.
protocol RegistryCommand: AsyncParsableCommand {
    /// Runs the command with the trait types of `registry`.
    mutating func run(registry: TraitRegistry) async throws
}

extension RegistryCommand {
    /// Runs the command with the built-in traits (and whatever the program registered on
    /// ``Livery/TraitRegistry/standard``).
    mutating func run() async throws {
        try await run(registry: .standard)
    }
}
