/// The URL prefixes that remote includes may name. Empty, the default, means remote includes
/// are off: a spec cannot make a process that loads it reach the network (no SSRF), whoever
/// wrote or pushed it.
///
/// An entry such as `https://cdn.example.com/brand/` enables a URL when the scheme, host and
/// port are the same (compared lower-cased, default ports normalised, so `https://CDN.example.com:443`
/// is the same origin) and the URL's path starts with the entry's path at a segment boundary:
/// `https://cdn.example.com/brand` enables `/brand` and `/brand/…` but not `/brandy.yaml`.
/// Lookalike hosts (`cdn.example.com.evil.net`), other ports, and URLs the strict reading of
/// ``RemoteIncludeURL`` refuses (user information, `..`, encoded `/` or `.`) never match.
import Foundation

public struct IncludeAllowList: Sendable, Hashable, CustomStringConvertible {
    /// The entries, each read like an include URL (a query is not allowed in an entry).
    public let prefixes: [RemoteIncludeURL]

    /// No entry: remote includes are off.
    public static let none = IncludeAllowList()

    /// No entry: remote includes are off.
    public init() { prefixes = [] }

    /// Reads the entries, such as the `--allow-include` options of the command line.
    ///
    /// - Throws: ``SpecError`` naming the entry that is not an http or https URL prefix.
    public init(_ entries: [String]) throws(SpecError) {
        var prefixes: [RemoteIncludeURL] = []
        for entry in entries {
            let at = SourceLocation.start(of: "allow-list")
            let prefix: RemoteIncludeURL
            do {
                prefix = try RemoteIncludeURL(entry, at: at)
            } catch {
                throw SpecError(
                    error.code, at: at,
                    error.message.replacingOccurrences(of: "remote include '", with: "allowed prefix '"))
            }
            guard prefix.query == nil else {
                throw SpecError(
                    .invalidValue, at: at,
                    "allowed prefix '\(entry)' has a query; an entry is a scheme, host, port and path")
            }
            prefixes.append(prefix)
        }
        self.prefixes = prefixes
    }

    /// Whether remote includes are on at all.
    public var isEmpty: Bool { prefixes.isEmpty }

    /// Whether an entry enables `url`.
    public func permits(_ url: RemoteIncludeURL) -> Bool {
        prefixes.contains { prefix in
            guard prefix.origin == url.origin else { return false }
            if prefix.path.hasSuffix("/") { return url.path.hasPrefix(prefix.path) }
            return url.path == prefix.path || url.path.hasPrefix(prefix.path + "/")
        }
    }

    /// The entries, comma-separated.
    public var description: String { prefixes.map(\.description).joined(separator: ", ") }
}
