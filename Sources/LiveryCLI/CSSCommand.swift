import ArgumentParser
import Foundation
import Livery

/// `livery css [DIR] [--theme NAME]`: prints the specs as the stylesheet the daemon serves at
/// `GET /v1/css`, for sites that build statically.
struct CSSCommand: RegistryCommand {
    static let configuration = CommandConfiguration(
        commandName: "css",
        abstract: "Print the specs as CSS, the stylesheet `livery serve` serves at /v1/css."
    )

    @Argument(help: "The specs folder (default: ./Specs).")
    var directory = "Specs"

    @Option(help: "Write only this theme's look, with no theme selectors.")
    var theme: String?

    func run(registry: TraitRegistry) throws {
        let styleSheet: StyleSheet
        do {
            let spec = try Spec(directory: URL(filePath: directory), registry: registry)
            styleSheet = try spec.styleSheet(theme: theme)
        } catch {
            FileHandle.standardError.write(Data((Diagnostics.describe(error, folder: directory) + "\n").utf8))
            throw ExitCode(1)
        }
        if !styleSheet.traitTypesWithoutCSS.isEmpty {
            let names = styleSheet.traitTypesWithoutCSS.joined(separator: ", ")
            FileHandle.standardError.write(Data("warning: trait types with no CSS form, not drawn: \(names)\n".utf8))
        }
        print(styleSheet.text, terminator: "")
    }
}
