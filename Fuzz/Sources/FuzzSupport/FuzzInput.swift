import Foundation
import Livery

/// How the fuzz targets turn raw bytes into spec files.
public enum FuzzInput {
    /// The byte that separates virtual files in a folder input.
    public static let separator: UInt8 = 0

    /// The base names of the virtual files, in order; the extension comes from the content.
    public static let names = ["a", "b", "sub/c"]

    /// The format a file's content suggests: JSON if its first non-blank byte is `{`, else YAML.
    public static func format(of data: Data) -> SpecFormat {
        let first = data.first { !(($0 == 0x20) || ($0 == 0x09) || ($0 == 0x0A) || ($0 == 0x0D)) }
        return first == UInt8(ascii: "{") ? .json : .yaml
    }

    /// Splits `data` at ``separator`` into at most ``names``.count files named `a.yaml`,
    /// `b.json`, `sub/c.yaml`, … (a later separator stays in the last file's bytes).
    public static func files(from data: Data) -> [(path: String, data: Data)] {
        let parts = data.split(separator: separator, maxSplits: names.count - 1, omittingEmptySubsequences: false)
        return zip(names, parts).map { name, part in
            let bytes = Data(part)
            return (name + "." + format(of: bytes).rawValue, bytes)
        }
    }
}
