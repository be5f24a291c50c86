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

    @Option(help: "Write this theme's variables (a resolver context, or a themes: entry) instead of the base ones.")
    var theme: String?

    @Option(name: .shortAndLong, help: "Write to this file instead of standard output.")
    var output: String?

    func run(registry: TraitRegistry) throws {
        let spec = try loadSpec(directory, registry: registry)
        guard let theme else { return try emit(spec.tokensDocument.prettyJSON, to: output) }
        try emit(spec.tokensDocument(theme: theme).prettyJSON, to: output)
    }
}
