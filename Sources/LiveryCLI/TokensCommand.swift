import ArgumentParser
import Foundation
import Livery

/// `livery tokens [DIR]`: writes the spec's variables as one design tokens document (DTCG
/// Format Module 2025.10), for Style Dictionary, Tokens Studio and the other tools that read it.
struct TokensCommand: RegistryCommand {
    static let configuration = CommandConfiguration(
        commandName: "tokens",
        abstract: "Write the spec's variables as a design tokens document (DTCG 2025.10, *.tokens.json)."
    )

    @Argument(help: "The specs folder (default: ./Specs).")
    var directory = "Specs"

    @Option(name: .shortAndLong, help: "Write to this file instead of standard output.")
    var output: String?

    func run(registry: TraitRegistry) throws {
        try emit(loadSpec(directory, registry: registry).tokensDocument.prettyJSON, to: output)
    }
}
