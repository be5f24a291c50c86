import ArgumentParser
import Foundation
import Livery
import LiveryServer
import LiveryTestSupport
import LiveryTesting
import Testing

@testable import LiveryCLI

/// The commands run with the registry `LiveryCommand.main(registry:)` hands them, so a team's own
/// `livery` knows its own trait types (the example package in Examples/CustomLivery runs the
/// whole loop as a process).
@Suite(.timeLimit(.minutes(1))) struct RegistryCommandTests {
    @Test func everyCommandThatReadsSpecsTakesTheRegistry() {
        let without = LiveryCommand.configuration.subcommands.filter { !($0 is any RegistryCommand.Type) }
        // These only send files, keys or print what the daemon answers; none decodes a spec.
        // (push and promote do: with --sign-with they build the version they sign; rollout's
        // --sign-with changes the targets signed before, and decodes no spec.)
        #expect(
            without.map { $0.configuration.commandName } == [
                "history", "rollback", "rollout", "status", "keys", "signing", "schedule", "environments", "changes",
            ])
    }

    @Test func validateKnowsTheRegistrysTraits() async throws {
        let folder = try TemporarySpecFolder()
        try folder.write("lamp.yaml", "specs:\n  lamp: [{ type: Glow, radius: 3 }]\n")
        #expect(await ValidateCommand.errors(at: folder.url, registry: try Glow.registry()).isEmpty)
        let standard = await ValidateCommand.errors(at: folder.url)
        #expect(
            standard.map(\.description) == [
                "\(folder.url.relativePath)/lamp.yaml:2:18: error: unknown trait type 'Glow'"
            ])
        #expect(
            UnknownTraitNote.notes(for: standard) == [
                "note: this livery knows no trait type 'Glow'; if your program registers it, build your own livery "
                    + "with LiveryCommand.main(registry:) on that registry (README, \"Your own traits\")"
            ])
    }

    @Test func identifiersReadsWithTheRegistry() async throws {
        let folder = try TemporarySpecFolder()
        try folder.write("specs/lamp.yaml", "specs:\n  lamp.top: [{ type: Glow, radius: 3 }]\n")
        let output = folder.url("Identifier.swift").path
        var command = try #require(
            try await LiveryCommand.asyncParseAsRoot(["identifiers", folder.url("specs").path, "-o", output])
                as? any RegistryCommand)
        try await command.run(registry: try Glow.registry())
        #expect(try String(contentsOfFile: output, encoding: .utf8).contains("case lampTop = \"lamp.top\""))
    }

    @Test func aNoteOnlyForNamesWithoutASuggestion() {
        let errors = [
            SpecError(.unknownTrait, at: .start(of: "a.yaml"), "unknown trait type 'Glw'; did you mean 'Glow'?"),
            SpecError(.unknownTrait, at: .start(of: "a.yaml"), "unknown trait type 'Sparkle'"),
            SpecError(.unknownTrait, at: .start(of: "b.yaml"), "unknown trait type 'Sparkle'"),
            SpecError(.typeMismatch, at: .start(of: "b.yaml"), "unknown trait type 'Other'"),
        ]
        #expect(UnknownTraitNote.notes(for: errors).count == 1)
        #expect(UnknownTraitNote.notes(for: errors).first?.contains("'Sparkle'") == true)
    }
}
