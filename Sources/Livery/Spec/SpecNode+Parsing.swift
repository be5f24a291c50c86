public import Foundation

extension SpecNode {
    /// Reads the bytes of one spec document into a node tree, without resolving it.
    ///
    /// This is the reader alone, exactly as `Spec(data:format:source:)` runs it first: size,
    /// UTF-8 and byte order mark checks, then the JSON or YAML syntax. Tools that only need the
    /// tree (and benchmarks that time parsing apart from resolution) use it.
    ///
    /// - Throws: A ``SpecError`` with a 1-based line and column.
    public static func parse(
        _ data: Data, format: SpecFormat, source: String, limits: ReaderLimits = .default
    ) throws(SpecError) -> SpecNode {
        try SpecReader.read(data, format: format, source: source, limits: limits)
    }
}
