/// Bounds on what a spec reader accepts, so a hostile or broken file (pushed over HTTP, say)
/// costs bounded memory and stack instead of taking the process down.
public struct ReaderLimits: Sendable, Hashable {
    /// The largest file, in bytes. Checked before anything is parsed.
    public var maxBytes: Int
    /// The deepest nesting of lists and mappings: `[[1]]` nests 2 levels, a scalar 0.
    public var maxDepth: Int
    /// The most values (scalars, lists and mappings, not counting keys) a document may hold
    /// once YAML aliases are expanded.
    public var maxNodes: Int

    /// Creates limits; the defaults are those of ``default``.
    public init(maxBytes: Int = 4 * 1024 * 1024, maxDepth: Int = 256, maxNodes: Int = 1_000_000) {
        self.maxBytes = maxBytes
        self.maxDepth = maxDepth
        self.maxNodes = maxNodes
    }

    /// 4 MiB, 256 levels, 1,000,000 values: far beyond any hand-written spec, small enough to
    /// parse in well under a second and within a secondary thread's stack.
    public static let `default` = ReaderLimits()
}

extension ReaderLimits {
    /// The error for a list or mapping at `location` that nests deeper than ``maxDepth``.
    func depthError(at location: SourceLocation) -> SpecError {
        SpecError(.limitExceeded, at: location, "document nests deeper than \(maxDepth) levels (the depth limit)")
    }
}
