public import Foundation

/// A parsed, validated and resolved spec: identifiers mapped to ordered trait lists, with the
/// variables and themes they were resolved from.
///
/// Every initialiser reads, merges and resolves everything (for every theme) before it returns,
/// so a `Spec` that exists is known to be good: a provider can apply it without meeting a
/// parse or reference error half-way. Initialisers throw the first ``SpecError`` found;
/// ``validate(_:roots:registry:limits:remoteIncludes:)`` returns all of them.
///
/// Read with ``UnknownTraitPolicy/skipIdentifier``, a spec whose only errors are unknown trait
/// types exists too: the identifiers that use them are ``skippedIdentifiers(theme:)``, and a
/// provider keeps those on their last good traits.
public struct Spec: Sendable {
    let document: SpecDocument
    let registry: TraitRegistry
    /// What this spec was read with, so that decoding it with another registry reads it alike.
    public let unknownTraits: UnknownTraitPolicy
    private let resolutions: [String: Resolution]
    private let base: Resolution

    /// Reads a JSON spec from a string.
    public init(
        json: String, source: String = "<json>", registry: TraitRegistry = .standard,
        unknownTraits: UnknownTraitPolicy = .rejectSpec
    ) throws {
        try self.init(
            data: Data(json.utf8), format: .json, source: source, registry: registry, unknownTraits: unknownTraits)
    }

    /// Reads a YAML spec from a string.
    public init(
        yaml: String, source: String = "<yaml>", registry: TraitRegistry = .standard,
        unknownTraits: UnknownTraitPolicy = .rejectSpec
    ) throws {
        try self.init(
            data: Data(yaml.utf8), format: .yaml, source: source, registry: registry, unknownTraits: unknownTraits)
    }

    /// Reads one spec document. It cannot include other files: it has no folder.
    ///
    /// - Parameters:
    ///   - data: The document's bytes.
    ///   - format: YAML or JSON.
    ///   - source: The name errors give the document.
    ///   - registry: The trait types its traits decode with.
    ///   - limits: The sizes and depths the reader refuses beyond.
    ///   - unknownTraits: Whether a trait type `registry` does not know rejects the spec (the
    ///     default) or skips the identifiers that use it.
    public init(
        data: Data, format: SpecFormat, source: String, registry: TraitRegistry = .standard,
        limits: ReaderLimits = .default, unknownTraits: UnknownTraitPolicy = .rejectSpec
    ) throws {
        var errors: [SpecError] = []
        let file = try SpecFile.read(path: source, data: data, format: format, limits: limits, errors: &errors)
        for include in file.includes {
            errors.append(
                SpecError(
                    .forbiddenPath, at: include.location,
                    "include '\(include.path)' needs a specs folder; load this spec with Spec(directory:) or Spec(file:)"
                ))
        }
        var merger = DocumentMerger()
        merger.add(file, errors: &errors)
        try self.init(document: merger.document, registry: registry, errors: errors, unknownTraits: unknownTraits)
    }

    /// Reads every spec file in `directory` (recursively, skipping hidden ones) and merges them.
    public init(
        directory: URL, registry: TraitRegistry = .standard, limits: ReaderLimits = .default,
        unknownTraits: UnknownTraitPolicy = .rejectSpec
    ) throws {
        let set = try SpecSourceSet(directory: directory, limits: limits)
        try self.init(sources: set, registry: registry, limits: limits, unknownTraits: unknownTraits)
    }

    /// Reads one spec file and the files it includes, from the folder it is in.
    public init(
        file: URL, registry: TraitRegistry = .standard, limits: ReaderLimits = .default,
        unknownTraits: UnknownTraitPolicy = .rejectSpec
    ) throws {
        let folder = file.deletingLastPathComponent()
        let set = try SpecSourceSet(directory: folder, limits: limits)
        let name = file.lastPathComponent
        guard set.files[name] != nil else {
            throw SpecError(.io, at: .start(of: name), "'\(file.path)' is not a readable spec file")
        }
        try self.init(sources: set, roots: [name], registry: registry, limits: limits, unknownTraits: unknownTraits)
    }

    /// Builds a spec from files already in memory: all of them, or `roots` and what they include.
    ///
    /// - Parameters:
    ///   - sources: The files, by path.
    ///   - roots: The files to start from; `nil` merges every file.
    ///   - registry: The trait types its traits decode with.
    ///   - limits: The sizes and depths the reader refuses beyond.
    ///   - remoteIncludes: Which URLs includes may name and their fetched documents; off by
    ///     default, so a URL include is an error (see ``RemoteIncludes``).
    ///   - unknownTraits: Whether a trait type `registry` does not know rejects the spec (the
    ///     default) or skips the identifiers that use it.
    public init(
        sources: SpecSourceSet, roots: [String]? = nil, registry: TraitRegistry = .standard,
        limits: ReaderLimits = .default, remoteIncludes: RemoteIncludes = .off,
        unknownTraits: UnknownTraitPolicy = .rejectSpec
    ) throws {
        let (document, errors) = Self.merge(sources, roots: roots, limits: limits, remote: remoteIncludes)
        try self.init(document: document, registry: registry, errors: errors, unknownTraits: unknownTraits)
    }

    /// Every error in a set of files, in the order found; empty when the files make a good spec.
    public static func validate(
        _ sources: SpecSourceSet, roots: [String]? = nil, registry: TraitRegistry = .standard,
        limits: ReaderLimits = .default, remoteIncludes: RemoteIncludes = .off
    ) -> [SpecError] {
        let (document, errors) = merge(sources, roots: roots, limits: limits, remote: remoteIncludes)
        return errors + TokenChecks.errors(document) + SpecResolver.resolveAll(document, registry: registry).errors
    }

    /// The allowed remote includes that `sources` (or `roots` and what they include) reach and
    /// `remoteIncludes` has no document for yet, in the order they are met.
    public static func missingRemoteIncludes(
        _ sources: SpecSourceSet, roots: [String]? = nil, limits: ReaderLimits = .default,
        remoteIncludes: RemoteIncludes
    ) -> [RemoteIncludeURL] {
        var graph = IncludeGraph(set: sources, limits: limits, remote: remoteIncludes)
        for path in roots ?? sources.sortedPaths { graph.visit(path) }
        return graph.missing.map(\.url)
    }

    private static func merge(
        _ sources: SpecSourceSet, roots: [String]?, limits: ReaderLimits, remote: RemoteIncludes
    ) -> (SpecDocument, [SpecError]) {
        var graph = IncludeGraph(set: sources, limits: limits, remote: remote)
        // Resolver documents first: the token files they read are theirs, not the folder's.
        let paths = roots ?? sources.sortedPaths
        for path in paths where SpecFile.kind(of: path) == .resolver { graph.visit(path) }
        for path in paths { graph.visit(path) }
        var errors = graph.errors
        for (url, location) in graph.missing {
            errors.append(SpecError(.io, at: location, "remote include '\(url)' was not fetched"))
        }
        var merger = DocumentMerger()
        for file in graph.order { merger.add(file, errors: &errors) }
        return (merger.document, errors)
    }

    init(
        document: SpecDocument, registry: TraitRegistry, errors: [SpecError], unknownTraits: UnknownTraitPolicy
    ) throws {
        let resolved = SpecResolver.resolveAll(document, registry: registry)
        if let first = unknownTraits.blocking(errors + TokenChecks.errors(document) + resolved.errors).first {
            throw first
        }
        self.document = document
        self.registry = registry
        self.unknownTraits = unknownTraits
        self.base = resolved.base
        self.resolutions = resolved.themes
    }

    /// The identifiers the spec styles, in document order.
    public var identifiers: [String] { document.identifiers.map(\.name) }

    /// The themes the spec defines, in document order.
    public var themes: [String] { document.themes.map(\.name) }

    /// The files the spec was read from, in merge order.
    public var files: [String] { document.files }

    /// The identifiers that use a trait type the registry does not know under `theme` (nil: no
    /// theme), directly or through `Inherit`, in document order; empty unless the spec was read
    /// with ``UnknownTraitPolicy/skipIdentifier``.
    public func skippedIdentifiers(theme: String? = nil) -> [SkippedIdentifier] {
        resolution(for: theme)?.skipped ?? []
    }

    /// The traits for `identifier` under `theme` (nil: no theme), after `Inherit` is flattened.
    /// For a skipped identifier, the traits it uses that are known.
    public func traits(for identifier: String, theme: String? = nil) -> [any Trait] {
        resolution(for: theme)?.list(for: identifier)?.traits.map(\.trait) ?? []
    }

    /// The whole spec as one JSON document in the spec format (includes inlined, variables and
    /// themes kept), readable by `init(json:source:registry:)`.
    public var bundleJSON: String { document.bundleNode.canonicalJSON }

    func resolution(for theme: String?) -> Resolution? {
        guard let theme else { return base }
        return resolutions[theme]
    }

    /// The same spec decoded through another registry, as a provider with its own registry
    /// needs, under the same ``UnknownTraitPolicy``.
    func decoded(with other: TraitRegistry) throws -> Spec {
        other === registry
            ? self : try Spec(document: document, registry: other, errors: [], unknownTraits: unknownTraits)
    }
}
