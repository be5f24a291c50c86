import ArgumentParser

/// The `livery` command line.
public struct LiveryCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "livery",
        abstract: "Live-reload theming daemon and reversible trait engine."
    )

    public init() {}
}

extension LiveryCommand {
    /// Prints the help: `livery` alone does nothing else yet.
    public func run() async throws {
        print(Self.helpMessage())
    }
}
