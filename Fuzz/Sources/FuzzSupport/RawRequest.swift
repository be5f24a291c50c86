import Foundation

/// A fuzz input read as an HTTP/1.1 request: a request line, header lines up to an empty line,
/// then the body. Lenient on purpose (LF or CRLF, missing parts are empty): the point is to
/// hand the interpreters every shape of string a client can send, not to judge the framing,
/// which the server's HTTP parser (NIO) does before any of our code runs.
public struct RawRequest {
    /// The request line's first word, such as `PUT`.
    public var method: String
    /// The path part of the request target, still percent-encoded.
    public var path: String
    /// The query's `name=value` pairs, percent-decoded (`nil` value: not valid UTF-8).
    public var query: [(name: String, value: String?)]
    /// Header fields in order, names lowercased, values without surrounding spaces and tabs.
    public var headers: [(name: String, value: String)]
    /// The bytes after the empty line.
    public var body: Data

    /// Reads `data` as a request; invalid UTF-8 becomes U+FFFD, as a server decoding header
    /// bytes leniently would see it.
    public init(_ data: Data) {
        let blank = data.firstRange(of: Data("\n\n".utf8)) ?? data.firstRange(of: Data("\r\n\r\n".utf8))
        let head = String(decoding: blank.map { data[..<$0.lowerBound] } ?? data, as: UTF8.self)
        body = blank.map { Data(data[$0.upperBound...]) } ?? Data()
        var lines = head.split(separator: "\n", omittingEmptySubsequences: false).map {
            $0.hasSuffix("\r") ? $0.dropLast() : $0
        }
        let requestLine = lines.isEmpty ? "" : lines.removeFirst()
        let words = requestLine.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        method = words.first.map(String.init) ?? ""
        let target = words.count > 1 ? words[1] : ""
        let question = target.firstIndex(of: "?")
        path = String(target[..<(question ?? target.endIndex)])
        query = question.map { Self.queryPairs(target[target.index(after: $0)...]) } ?? []
        headers = lines.compactMap { line in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            let value = line[line.index(after: colon)...].trimmingCharacters(in: CharacterSet(charactersIn: " \t"))
            return (line[..<colon].lowercased(), value)
        }
    }

    /// Every value of the header `name` (lowercase), in order.
    public func values(of name: String) -> [String] {
        headers.filter { $0.name == name }.map(\.value)
    }

    private static func queryPairs(_ query: Substring) -> [(name: String, value: String?)] {
        query.split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let decode = { (text: Substring) in text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding }
            return (decode(parts[0]) ?? String(parts[0]), parts.count > 1 ? decode(parts[1]) : "")
        }
    }
}
