import ArgumentParser
import Foundation
import Livery
import LiveryServer

/// `livery validate [PATH...]`: checks spec folders or files and prints every error in compiler
/// style (or as JSON for tools). Exits 1 if there is any error.
struct ValidateCommand: RegistryCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check spec files or folders and print every error as file:line:column."
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    @Argument(help: "Spec folders or files (default: ./Specs).")
    var paths: [String] = ["Specs"]

    @Option(help: "Output format: text (compiler style) or json.")
    var format: Format = .text

    @OptionGroup var includes: IncludeOptions

    func run(registry: TraitRegistry) async throws {
        let allowList = try includes.allowList()
        let fetcher = includes.fetcher()
        var results: [(path: String, errors: [SpecError])] = []
        for path in paths {
            results.append(
                (
                    path,
                    await Self.errors(
                        at: URL(filePath: path), registry: registry, allowList: allowList, fetcher: fetcher)
                ))
        }
        let all = results.flatMap(\.errors)
        switch format {
        case .text:
            for error in all { print(error) }
            for result in results where result.errors.isEmpty {
                for warning in Self.warnings(at: URL(filePath: result.path), registry: registry) { print(warning) }
            }
            for note in UnknownTraitNote.notes(for: all) { print(note) }
            if all.isEmpty {
                print("\(paths.joined(separator: ", ")): ok")
            }
        case .json:
            print(try Self.json(results))
        }
        if !all.isEmpty { throw ExitCode(1) }
    }

    /// Every error of a folder (all its files) or of one file (with its includes), with file
    /// names as the user wrote the path, so a terminal or editor can jump to them. Allowed remote
    /// includes are fetched (and their documents checked) with `fetcher`; trait types are looked
    /// up in `registry`.
    static func errors(
        at url: URL, registry: TraitRegistry = .standard, allowList: IncludeAllowList = .none,
        fetcher: (any RemoteIncludeFetcher)? = nil
    ) async -> [SpecError] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) else {
            return [SpecError(.io, at: .start(of: url.path), "no such file or folder")]
        }
        let folder = isFolder.boolValue ? url : url.deletingLastPathComponent()
        let errors: [SpecError]
        do {
            let sources = try SpecSourceSet(directory: folder)
            let roots = isFolder.boolValue ? nil : [url.lastPathComponent]
            var remote = RemoteIncludes(allowList: allowList)
            if let fetcher { await remote.fetchDocuments(for: sources, roots: roots, using: fetcher) }
            errors = Spec.validate(sources, roots: roots, registry: registry, remoteIncludes: remote)
        } catch {
            errors = [error]
        }
        return errors.map { Diagnostics.relative($0, toFolder: folder.relativePath) }
    }

    /// The warnings of a folder or file that validates (uses of deprecated design tokens), named
    /// like its errors.
    static func warnings(at url: URL, registry: TraitRegistry = .standard) -> [SpecWarning] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) else { return [] }
        let folder = isFolder.boolValue ? url : url.deletingLastPathComponent()
        guard let sources = try? SpecSourceSet(directory: folder),
            let spec = try? Spec(
                sources: sources, roots: isFolder.boolValue ? nil : [url.lastPathComponent], registry: registry)
        else { return [] }
        return spec.warnings.map { $0.named(SpecFileNaming(folder: folder.relativePath)) }
    }

    /// The daemon's own diagnostic shape (`messageParts` included), so tools read one format.
    private static func json(_ results: [(path: String, errors: [SpecError])]) throws -> String {
        struct Report: Encodable {
            var ok: Bool
            var errors: [Diagnostic]
        }
        let diagnostics = results.flatMap(\.errors).map(Diagnostic.init)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(Report(ok: diagnostics.isEmpty, errors: diagnostics)), as: UTF8.self)
    }
}
