import ArgumentParser
import Foundation
import Livery

extension RegistryCommand {
    /// The spec of the folder `directory`, or, when it does not load, every error printed to
    /// standard error and exit status 1.
    func loadSpec(_ directory: String, registry: TraitRegistry) throws -> Spec {
        do {
            return try Spec(directory: URL(filePath: directory), registry: registry)
        } catch {
            FileHandle.standardError.write(Data((Diagnostics.describe(error, folder: directory) + "\n").utf8))
            throw ExitCode(1)
        }
    }

    /// Writes what a command generated to the file `output` (atomically), or to standard output.
    func emit(_ text: String, to output: String?) throws {
        if let output {
            try Data(text.utf8).write(to: URL(filePath: output), options: .atomic)
        } else {
            print(text, terminator: "")
        }
    }
}
