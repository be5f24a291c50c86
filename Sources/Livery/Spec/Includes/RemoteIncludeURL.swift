/// An `http` or `https` URL named by an `include:`, checked and in one canonical spelling.
///
/// The daemon fetches exactly ``description``, the spelling the allow-list was checked against,
/// so no second URL parser (the HTTP client's, a proxy's, the server's) can read it otherwise:
/// anything two parsers might disagree on is refused here rather than interpreted. Refused:
/// other schemes, user information (`https://a@b/`), characters outside printable ASCII or
/// unsafe in URLs (`\`, spaces, `{`…), fragments, ports out of range, `.` and `..` path segments,
/// and percent-encoded `/`, `\` or `.` (`%2F`, `%5C`, `%2E`), which servers decode differently.
/// The scheme and host are lower-cased and a default port (80, 443) is dropped.
import Foundation

public struct RemoteIncludeURL: Hashable, Sendable, CustomStringConvertible {
    /// `http` or `https`.
    public let scheme: String
    /// The host, lower-cased: a name, an IPv4 address or a bracketed IPv6 address.
    public let host: String
    /// The port, explicit or the scheme's default.
    public let port: Int
    /// The path, starting with `/`, percent-encoding kept as written.
    public let path: String
    /// The query without its `?`, if any.
    public let query: String?

    /// Parses `text`; the error (at `location`) says which rule it breaks.
    public init(_ text: String, at location: SourceLocation) throws(SpecError) {
        func refuse(_ reason: String) -> SpecError {
            SpecError(.forbiddenPath, at: location, "remote include '\(text)' \(reason)")
        }
        let unsafe = Set(#"\"<>^`{|} "#.unicodeScalars)
        if let bad = text.unicodeScalars.first(where: { $0.value < 0x21 || $0.value > 0x7E || unsafe.contains($0) }) {
            throw refuse(
                "contains \(bad.value > 0x7E ? "a non-ASCII character" : "the character \(String(bad).debugDescription)"); write it percent-encoded (and a host in punycode)"
            )
        }
        guard let separator = text.range(of: "://") else { throw refuse("is not a URL") }
        let scheme = text[..<separator.lowerBound].lowercased()
        guard scheme == "http" || scheme == "https" else {
            throw refuse("uses the scheme '\(scheme)'; only http and https URLs can be included")
        }
        var rest = text[separator.upperBound...]
        guard !rest.contains("#") else { throw refuse("has a fragment ('#'); remove it") }
        let authorityEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        rest = rest[authorityEnd...]
        guard !authority.contains("@") else {
            throw refuse("has user information ('…@'); credentials in include URLs are not allowed")
        }
        let (host, port) = try Self.hostAndPort(
            of: authority, defaultPort: scheme == "https" ? 443 : 80, refuse: refuse)
        let queryStart = rest.firstIndex(of: "?")
        let path = queryStart.map { rest[..<$0] } ?? rest
        try Self.checkPath(path, refuse: refuse)
        self.scheme = scheme
        self.host = host
        self.port = port
        self.path = path.isEmpty ? "/" : String(path)
        self.query = queryStart.map { String(rest[rest.index(after: $0)...]) }
    }

    /// `scheme://host[:port]/path[?query]`, the default port left out.
    public var description: String {
        let defaultPort = scheme == "https" ? 443 : 80
        return "\(scheme)://\(host)\(port == defaultPort ? "" : ":\(port)")\(path)\(query.map { "?" + $0 } ?? "")"
    }

    /// Scheme, host and port as they are compared: `https://cdn.example.com:443`.
    var origin: String { "\(scheme)://\(host):\(port)" }

    /// The URL's folder, up to and including the path's last `/`: the narrowest allow-list entry
    /// that enables it.
    var folder: String {
        let defaultPort = scheme == "https" ? 443 : 80
        let folderPath = path[...(path.lastIndex(of: "/") ?? path.startIndex)]
        return "\(scheme)://\(host)\(port == defaultPort ? "" : ":\(port)")\(folderPath)"
    }

    private static func hostAndPort(
        of authority: Substring, defaultPort: Int, refuse: (String) -> SpecError
    ) throws(SpecError) -> (String, Int) {
        var host = authority
        var portText: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { throw refuse("has an unterminated IPv6 address") }
            host = authority[...close]
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw refuse("has characters after its IPv6 address") }
                portText = after.dropFirst()
            }
            guard host.dropFirst().dropLast().allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) else {
                throw refuse("has an invalid IPv6 address")
            }
        } else if let colon = authority.firstIndex(of: ":") {
            host = authority[..<colon]
            portText = authority[authority.index(after: colon)...]
        }
        let lowered = host.lowercased()
        guard !lowered.isEmpty else { throw refuse("has no host") }
        if !lowered.hasPrefix("[") {
            let labels = lowered.split(separator: ".", omittingEmptySubsequences: false)
            let validLabel = { (label: Substring) in
                !label.isEmpty && label.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
            }
            guard labels.allSatisfy(validLabel) else {
                throw refuse("has an invalid host '\(host)'; a host is letters, digits and '-' in dot-separated labels")
            }
        }
        guard let portText else { return (lowered, defaultPort) }
        guard !portText.isEmpty, portText.count <= 5, portText.allSatisfy({ $0.isASCII && $0.isNumber }),
            let port = Int(portText), (1...65535).contains(port)
        else { throw refuse("has an invalid port '\(portText)'") }
        return (lowered, port)
    }

    /// Refuses what could let the path mean another place to the server than it does here.
    private static func checkPath(_ path: Substring, refuse: (String) -> SpecError) throws(SpecError) {
        if let percent = path.firstIndex(of: "%") {
            var index = percent
            while index < path.endIndex {
                defer { index = path.index(after: index) }
                guard path[index] == "%" else { continue }
                let digits = path[path.index(after: index)...].prefix(2)
                guard digits.count == 2, digits.allSatisfy(\.isHexDigit) else {
                    throw refuse("has a '%' that is not followed by two hex digits")
                }
                if ["2f", "5c", "2e", "00"].contains(digits.lowercased()) {
                    throw refuse("has an encoded '/', '\\', '.' or NUL (%\(digits)) in its path")
                }
            }
        }
        for segment in path.split(separator: "/", omittingEmptySubsequences: false)
        where segment == "." || segment == ".." {
            throw refuse("has a '\(segment)' segment in its path; write the path without it")
        }
    }
}
