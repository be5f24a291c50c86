import ArgumentParser

/// The `livery` command line.
public struct LiveryCommand: AsyncParsableCommand {
    /// Subcommands and help.
    public static let configuration = CommandConfiguration(
        commandName: "livery",
        abstract: "Live-reload theming daemon and reversible trait engine.",
        subcommands: [DemoCommand.self, ValidateCommand.self, WatchCommand.self, ServeCommand.self, PushCommand.self, HistoryCommand.self, RollbackCommand.self, SchemaCommand.self, IdentifiersCommand.self]
    )

    /// Creates the command (ArgumentParser fills it in).
    public init() {}
}
