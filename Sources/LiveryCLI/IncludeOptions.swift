import ArgumentParser
import Foundation
import Livery
import LiveryRemote

/// The options of the commands that load specs folders (`serve`, `watch`, `validate`): which
/// URLs remote includes may fetch. Without `--allow-include` remote includes are off.
struct IncludeOptions: ParsableArguments {
    @Option(
        name: .customLong("allow-include"),
        help: ArgumentHelp(
            "Let includes fetch http(s) URLs under this prefix (repeatable). Scheme, host and port must match exactly and the path must start with the prefix's path at a '/' boundary. Remote includes are off without it.",
            valueName: "prefix"))
    var allowInclude: [String] = []

    @Option(help: "Seconds a remote include may take to fetch (connecting and reading the whole document).")
    var includeTimeout: Double = 5

    func validate() throws {
        _ = try allowList()
        guard includeTimeout > 0, includeTimeout.isFinite else {
            throw ValidationError("--include-timeout must be positive")
        }
    }

    /// The `--allow-include` prefixes; a bad one is a usage error naming it.
    func allowList() throws -> IncludeAllowList {
        do {
            return try IncludeAllowList(allowInclude)
        } catch {
            throw ValidationError("--allow-include: \(error.message)")
        }
    }

    /// The HTTP fetcher, when remote includes are on.
    func fetcher(limits: ReaderLimits = .default) -> HTTPIncludeFetcher? {
        guard !allowInclude.isEmpty else { return nil }
        return HTTPIncludeFetcher(
            configuration: .init(timeout: .milliseconds(Int(includeTimeout * 1000)), limits: limits))
    }

    /// How a specs folder is loaded with these options and the trait types of `registry`.
    func loader(registry: TraitRegistry) throws -> SpecFolderLoader {
        SpecFolderLoader(registry: registry, allowList: try allowList(), fetcher: fetcher())
    }
}
