import FuzzSupport
@_spi(LiveryInternal) import LiveryHTTP

/// The contract of the daemon's raw reader of plain bundle requests (BundleRequestScan): what
/// it accepts is one whole `GET /v1/spec HTTP/1.1` or `GET /v1/css HTTP/1.1` (or `HEAD`) head
/// without a body, a control character or a second `If-None-Match`, `Host` or `Authorization`,
/// and it reads nothing past that head; the `Host` and `Authorization` ranges it gives are those
/// lines' values, trimmed, and ``AdmissionChecks`` holds the admission rule on them to a reference.
enum BundleScanChecks {
    static let maxHeadBytes = 512

    static func check(_ bytes: UnsafeRawBufferPointer) {
        let result = BundleRequestScan.scan(bytes, maxHeadBytes: maxHeadBytes)
        switch result {
        case .bundle(let length, let tag, _, let isHead, let encodings, let styleSheet, let host, let authorization):
            fuzzCheck(length <= bytes.count && length <= maxHeadBytes, "accepted \(length) bytes of \(bytes.count)")
            let head = Array(bytes[0..<length])
            let path = styleSheet ? "/v1/css" : "/v1/spec"
            let requestLine = Array("\(isHead ? "HEAD" : "GET") \(path) HTTP/1.1\r\n".utf8)
            fuzzCheck(head.starts(with: requestLine), "accepted another request line")
            fuzzCheck(
                head.suffix(4).elementsEqual([13, 10, 13, 10]), "accepted a head that does not end with an empty line")
            if let tag {
                fuzzCheck(
                    tag.lowerBound >= requestLine.count && tag.upperBound <= length - 4,
                    "tag range \(tag) outside the head")
            }
            for (name, range) in [("Accept-Encoding", encodings), ("Host", host), ("Authorization", authorization)] {
                guard let range else { continue }
                fuzzCheck(
                    range.lowerBound >= requestLine.count && range.upperBound <= length - 4,
                    "\(name) range \(range) outside the head")
            }
            let values = checkLines(of: head)
            fuzzCheck(
                host.map { Array(head[$0]) } == values.host,
                "Host range \(String(describing: host)) is not the Host line's value \(String(describing: values.host))"
            )
            fuzzCheck(
                authorization.map { Array(head[$0]) } == values.authorization,
                "Authorization range \(String(describing: authorization)) is not the line's value")
            head.withUnsafeBytes { bytes in
                AdmissionChecks.check(
                    host: host.map { UnsafeRawBufferPointer(rebasing: bytes[$0]) },
                    authorization: authorization.map { UnsafeRawBufferPointer(rebasing: bytes[$0]) })
            }
            // Nothing past the head was read: the same head followed by anything reads the same.
            let longer = head + Array("X".utf8)
            let again = longer.withUnsafeBytes { BundleRequestScan.scan($0, maxHeadBytes: maxHeadBytes) }
            fuzzCheck(again == result, "the head followed by a byte reads as \(again), alone as \(result)")
            // A head cut short is not accepted.
            let cut = head.dropLast().withUnsafeBytes { BundleRequestScan.scan($0, maxHeadBytes: maxHeadBytes) }
            fuzzCheck(cut == .incomplete, "the head without its last byte reads as \(cut)")
        case .incomplete:
            fuzzCheck(bytes.count < maxHeadBytes, "\(bytes.count) bytes, at or over the limit, said incomplete")
        case .other:
            break
        }
    }

    /// Checks each header line; returns the values of the `Host` and `Authorization` lines,
    /// trimmed of spaces and tabs.
    private static func checkLines(of head: [UInt8]) -> (host: [UInt8]?, authorization: [UInt8]?) {
        var lines = head.split(separator: 10, omittingEmptySubsequences: false).dropLast(2)
        lines = lines.dropFirst()
        var conditions = 0
        var encodings = 0
        var hosts: [[UInt8]] = []
        var authorizations: [[UInt8]] = []
        for line in lines {
            fuzzCheck(line.last == 13, "a line not ended by CRLF")
            let text = line.dropLast()
            fuzzCheck(!text.contains { ($0 < 0x20 && $0 != 9) || $0 == 0x7F }, "a control character in a header line")
            guard let colon = text.firstIndex(of: UInt8(ascii: ":")) else {
                fuzzCheck(false, "a header line without a colon")
                continue
            }
            let name = String(decoding: text[..<colon], as: UTF8.self).lowercased()
            fuzzCheck(
                !name.isEmpty && !name.contains(" ") && !name.contains("\t"), "header name \(name.debugDescription)")
            fuzzCheck(
                !["content-length", "transfer-encoding", "expect", "upgrade"].contains(name), "accepted a \(name) field"
            )
            if name == "if-none-match" { conditions += 1 }
            if name == "accept-encoding" { encodings += 1 }
            let value = Array(text[text.index(after: colon)...]).trimmed
            if name == "host" { hosts.append(value) }
            if name == "authorization" { authorizations.append(value) }
        }
        fuzzCheck(conditions <= 1, "accepted \(conditions) If-None-Match lines")
        fuzzCheck(encodings <= 1, "accepted \(encodings) Accept-Encoding lines")
        fuzzCheck(hosts.count <= 1, "accepted \(hosts.count) Host lines")
        fuzzCheck(authorizations.count <= 1, "accepted \(authorizations.count) Authorization lines")
        return (hosts.first, authorizations.first)
    }
}

extension Array where Element == UInt8 {
    /// Without leading and trailing spaces and tabs.
    var trimmed: [UInt8] {
        let blank: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 }
        guard let first = firstIndex(where: { !blank($0) }), let last = lastIndex(where: { !blank($0) }) else {
            return []
        }
        return Array(self[first...last])
    }
}
