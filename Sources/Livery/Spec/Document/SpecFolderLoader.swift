public import Foundation

/// Loads a specs folder in two steps, so that a folder watcher can read the folder where it
/// reads it (synchronously) and do the network I/O of remote includes elsewhere (asynchronously,
/// never on the thread that owns inotify).
///
/// ```swift
/// let loader = SpecFolderLoader(allowList: try IncludeAllowList(["https://cdn.example.com/brand/"]),
///                               fetcher: HTTPIncludeFetcher())
/// let spec = try await loader.complete(try loader.read(folder))
/// ```
///
/// Failures throw ``SpecErrors`` with every error found, each located (`file:line:column`; a
/// remote document's errors name its URL as the file, a failed fetch the include that named it).
public struct SpecFolderLoader: Sendable {
    /// A folder read from disk: a spec already, or files that wait for their remote includes.
    public enum Stage: Sendable {
        /// Nothing to fetch: the folder resolved.
        case ready(Spec)
        /// The files, and the allowed remote includes they need.
        case needsFetching(SpecSourceSet)
    }

    /// The trait types specs may use.
    public var registry: TraitRegistry
    /// Bounds on every file and fetched document.
    public var limits: ReaderLimits
    /// The URL prefixes remote includes may name; empty (the default) turns them off.
    public var allowList: IncludeAllowList
    /// What fetches remote includes; without one an allowed include reports that it was not fetched.
    public var fetcher: (any RemoteIncludeFetcher)?

    /// Creates a loader; remote includes are off unless `allowList` has entries.
    public init(
        registry: TraitRegistry = .standard, limits: ReaderLimits = .default, allowList: IncludeAllowList = .none,
        fetcher: (any RemoteIncludeFetcher)? = nil
    ) {
        self.registry = registry
        self.limits = limits
        self.allowList = allowList
        self.fetcher = fetcher
    }

    /// Reads the folder: no network I/O, cheap enough for a watcher's scan.
    public func read(_ folder: URL) throws -> Stage {
        try read(SpecSourceSet(directory: folder, limits: limits))
    }

    /// Reads files already in memory (a folder someone else listed and read).
    public func read(_ sources: SpecSourceSet) throws -> Stage {
        let remote = RemoteIncludes(allowList: allowList)
        if !allowList.isEmpty,
            !Spec.missingRemoteIncludes(sources, limits: limits, remoteIncludes: remote).isEmpty
        {
            return .needsFetching(sources)
        }
        return .ready(try build(sources, remote: remote))
    }

    /// Fetches what a stage needs (each time: a reload re-fetches) and resolves the spec.
    public func complete(_ stage: Stage) async throws -> Spec {
        switch stage {
        case .ready(let spec):
            return spec
        case .needsFetching(let sources):
            var remote = RemoteIncludes(allowList: allowList)
            if let fetcher { await remote.fetchDocuments(for: sources, limits: limits, using: fetcher) }
            return try build(sources, remote: remote)
        }
    }

    /// Reads and completes in one go.
    public func load(_ folder: URL) async throws -> Spec {
        try await complete(try read(folder))
    }

    /// The spec, or every error (not just the first), so status pages and logs show them all.
    private func build(_ sources: SpecSourceSet, remote: RemoteIncludes) throws -> Spec {
        do {
            return try Spec(sources: sources, registry: registry, limits: limits, remoteIncludes: remote)
        } catch {
            let all = Spec.validate(sources, registry: registry, limits: limits, remoteIncludes: remote)
            throw all.isEmpty ? error : SpecErrors(all)
        }
    }
}
