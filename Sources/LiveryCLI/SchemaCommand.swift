import ArgumentParser
import Livery

/// `livery schema`: prints the JSON Schema (draft 2020-12) of the spec format, generated from the
/// trait registry, for editors' YAML and JSON language servers.
struct SchemaCommand: RegistryCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract: "Print the JSON Schema of spec files (every registered trait), for editors."
    )

    func run(registry: TraitRegistry) {
        print(registry.jsonSchema(), terminator: "")
    }
}
