import Foundation
import Livery
import LiveryCLI
import LiveryTesting
import Testing

/// The example specs compiled into `livery` are exactly the repository's `Specs/`.
@Suite struct EmbeddedSpecsTests {
    @Test func equalTheRepositorysSpecsFolder() throws {
        #expect(EmbeddedSpecs.files.map(\.name) == (try RepositorySpecs.names()))
        for file in EmbeddedSpecs.files {
            let onDisk = try String(contentsOf: RepositorySpecs.folder.appending(path: file.name), encoding: .utf8)
            #expect(
                file.contents == onDisk,
                "EmbeddedSpecs.swift's \(file.name) differs from Specs/\(file.name); copy it over")
        }
    }

    @Test func writeAFolderThatLoadsAndNeverOverwrite() throws {
        let folder = try TemporarySpecFolder()
        let specs = folder.url("Specs")
        try EmbeddedSpecs.write(to: specs)
        let spec = try Spec(directory: specs)
        #expect(spec.identifiers.contains("card.button"))
        #expect(spec.themes == ["dark"])
        #expect(throws: (any Error).self) { try EmbeddedSpecs.write(to: specs) }
    }
}
