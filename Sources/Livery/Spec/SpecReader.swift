package import Foundation

/// Turns the bytes of a spec file into a ``SpecNode`` tree, in either format.
///
/// Internal plumbing behind `Spec(data:format:source:)`: every check that does not depend on the
/// syntax (size, UTF-8, byte order mark) happens here once, in that order, so both readers
/// report them identically.
package enum SpecReader {
    /// Reads `data` as one document of `format`.
    ///
    /// - Parameters:
    ///   - data: The file's bytes, UTF-8, optionally starting with a byte order mark.
    ///   - format: The syntax to read.
    ///   - source: The name shown in locations, usually the path relative to the specs folder.
    ///   - limits: Bounds on size, nesting and node count.
    /// - Throws: A ``SpecError`` whose location is 1-based line and column (columns count
    ///   Unicode scalars, the byte order mark excluded).
    package static func read(
        _ data: Data, format: SpecFormat, source: String, limits: ReaderLimits = .default
    ) throws(SpecError) -> SpecNode {
        // Checked before anything else so that a huge push costs nothing more than its length.
        guard data.count <= limits.maxBytes else {
            throw SpecError(
                .limitExceeded, at: .start(of: source),
                "file is \(data.count) bytes; the limit is \(limits.maxBytes) bytes")
        }
        var result: Result<SpecNode, SpecError> = .failure(
            SpecError(.io, at: .start(of: source), "the file's bytes could not be read"))
        data.withUnsafeBytes { raw in
            let buffer = raw.assumingMemoryBound(to: UInt8.self)
            result = Result { () throws(SpecError) -> SpecNode in
                let text = SpecText(buffer, source: source)
                try text.validateUTF8()
                switch format {
                case .json: return try JSONReader.read(text, limits: limits)
                case .yaml: return try YAMLReader.read(text, limits: limits)
                }
            }
        }
        return try result.get()
    }
}
