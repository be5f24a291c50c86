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
        try read(data, format: format, source: source, limits: limits, noting: []).root
    }

    /// Reads `data` as one document of `format`, and says whether any mapping in it may have one
    /// of `keys`: surely for JSON, which notes them as it reads; for YAML whenever `keys` is not
    /// empty (a caller that keeps the tree whole for them is then only slower).
    static func read(
        _ data: Data, format: SpecFormat, source: String, limits: ReaderLimits, noting keys: [String]
    ) throws(SpecError) -> (root: SpecNode, mayHoldNotedKey: Bool) {
        // Checked before anything else so that a huge push costs nothing more than its length.
        guard data.count <= limits.maxBytes else {
            throw SpecError(
                .limitExceeded, at: .start(of: source),
                "file is \(data.count) bytes; the limit is \(limits.maxBytes) bytes")
        }
        var result: Result<(SpecNode, Bool), SpecError> = .failure(
            SpecError(.io, at: .start(of: source), "the file's bytes could not be read"))
        data.withUnsafeBytes { raw in
            let buffer = raw.assumingMemoryBound(to: UInt8.self)
            result = Result { () throws(SpecError) -> (SpecNode, Bool) in
                let text = SpecText(buffer, source: source)
                try text.validateUTF8()
                switch format {
                case .json: return try JSONReader.read(text, limits: limits, noting: keys)
                case .yaml: return (try YAMLReader.read(text, limits: limits), !keys.isEmpty)
                }
            }
        }
        return try result.get()
    }
}
