/// Recognises, in the raw bytes a client sent, one whole `GET /v1/spec HTTP/1.1` or
/// `GET /v1/css HTTP/1.1` (or `HEAD`) request head of the plainest kind: what a polling client
/// sends over and over. The daemon answers those
/// from pre-built bytes without running the HTTP parser (figure 3 of the benchmarks).
///
/// Anything out of the ordinary is ``Result/other``, and the full HTTP stack takes over: a
/// query (`?wait=`), another method (but `HEAD`), path or version, a body (`Content-Length`,
/// `Transfer-Encoding`), `Expect`, `Upgrade`, `Livery-Client` (the daemon records who sent
/// it), more than one `If-None-Match` or `Accept-Encoding` line, a folded or malformed header
/// line, a control character, a head over `maxHeadBytes`, more than one `Host` or
/// `Authorization` line. So this reader needs to be right only about what it accepts, and it
/// accepts little. The `Host` and `Authorization` values it finds go to ``RequestAdmission``,
/// as the parsed request's do.
public enum BundleRequestScan {
    /// What the bytes start with.
    public enum Result: Equatable, Sendable {
        /// A whole plain request head of `length` bytes. `ifNoneMatch` is the range of the
        /// `If-None-Match` value within the bytes, trimmed; `closes` is `Connection: close`;
        /// `isHead` is a `HEAD` request; `acceptEncoding` is the range of the
        /// `Accept-Encoding` value, trimmed; `styleSheet` is a request for `/v1/css`; `host` and
        /// `authorization` the ranges of those values, trimmed.
        case bundle(
            length: Int, ifNoneMatch: Range<Int>?, closes: Bool, isHead: Bool = false,
            acceptEncoding: Range<Int>? = nil, styleSheet: Bool = false,
            host: Range<Int>? = nil, authorization: Range<Int>? = nil
        )
        /// The start of what may be such a request, with its end not arrived yet.
        case incomplete
        /// Anything else.
        case other
    }

    static let getLine = requestLine("GET", .bundle)
    static let headLine = requestLine("HEAD", .bundle)
    static let styleSheetGetLine = requestLine("GET", .styleSheet)
    static let styleSheetHeadLine = requestLine("HEAD", .styleSheet)

    private static func requestLine(_ method: String, _ form: BundleForm) -> [UInt8] {
        Array("\(method) \(form.path) HTTP/1.1\r\n".utf8)
    }

    /// Reads the request head at the start of `bytes`.
    public static func scan(_ bytes: UnsafeRawBufferPointer, maxHeadBytes: Int) -> Result {
        let isHead = bytes.first == UInt8(ascii: "H")
        // The byte after "/v1/" tells the two paths apart; the whole line is compared below.
        let pathByte = (isHead ? 5 : 4) + 4
        let styleSheet = bytes.count > pathByte && bytes[pathByte] == UInt8(ascii: "c")
        let requestLine =
            switch (isHead, styleSheet) {
            case (false, false): getLine
            case (true, false): headLine
            case (false, true): styleSheetGetLine
            case (true, true): styleSheetHeadLine
            }
        let limit = min(bytes.count, maxHeadBytes)
        guard limit >= requestLine.count else {
            return bytes.count < requestLine.count && requestLine.starts(with: bytes) ? .incomplete : .other
        }
        guard RawBytes.equal(UnsafeRawBufferPointer(rebasing: bytes[0..<requestLine.count]), requestLine) else {
            return .other
        }
        var ifNoneMatch: Range<Int>?
        var acceptEncoding: Range<Int>?
        var host: Range<Int>?
        var authorization: Range<Int>?
        var closes = false
        var lineStart = requestLine.count
        while true {
            // One header line, or the empty line that ends the head.
            guard let lineEnd = lineEnd(in: bytes, from: lineStart, limit: limit) else {
                return limit == bytes.count && bytes.count < maxHeadBytes ? .incomplete : .other
            }
            guard lineEnd >= 0 else { return .other }
            if lineEnd == lineStart {
                return .bundle(
                    length: lineEnd + 2, ifNoneMatch: ifNoneMatch, closes: closes, isHead: isHead,
                    acceptEncoding: acceptEncoding, styleSheet: styleSheet, host: host,
                    authorization: authorization)
            }
            guard let field = field(in: bytes, from: lineStart, to: lineEnd) else { return .other }
            switch field.name {
            case .contentLength, .transferEncoding, .expect, .upgrade, .liveryClient:
                return .other
            case .ifNoneMatch:
                guard ifNoneMatch == nil else { return .other }
                ifNoneMatch = field.value
            case .acceptEncoding:
                guard acceptEncoding == nil else { return .other }
                acceptEncoding = field.value
            case .host:
                guard host == nil else { return .other }
                host = field.value
            case .authorization:
                guard authorization == nil else { return .other }
                authorization = field.value
            case .connection:
                closes = closes || containsClose(bytes, field.value)
            case .ignored:
                break
            }
            lineStart = lineEnd + 2
        }
    }

    /// The index of the CR of the CRLF ending the line that starts at `start`; -1 if the line
    /// holds a bare CR or LF or another control character but HTAB; nil if no CRLF comes
    /// before `limit`.
    private static func lineEnd(in bytes: UnsafeRawBufferPointer, from start: Int, limit: Int) -> Int? {
        var index = start
        while index < limit {
            let byte = bytes[index]
            if byte == 0x0D {
                guard index + 1 < limit else { return nil }
                return bytes[index + 1] == 0x0A ? index : -1
            }
            if (byte < 0x20 && byte != 0x09) || byte == 0x7F { return -1 }
            index += 1
        }
        return nil
    }

    private enum FieldName {
        case contentLength, transferEncoding, expect, upgrade, ifNoneMatch, acceptEncoding, connection, liveryClient,
            host, authorization, ignored
    }

    /// `name ":" OWS value OWS` over `start..<end`; nil if the name is empty or not a token
    /// (which also refuses a folded line, starting with a space).
    private static func field(
        in bytes: UnsafeRawBufferPointer, from start: Int, to end: Int
    ) -> (name: FieldName, value: Range<Int>)? {
        var colon = start
        while colon < end, bytes[colon] != UInt8(ascii: ":") {
            guard isTokenByte(bytes[colon]) else { return nil }
            colon += 1
        }
        guard colon < end, colon > start else { return nil }
        var valueStart = colon + 1
        var valueEnd = end
        while valueStart < valueEnd, bytes[valueStart] == 0x20 || bytes[valueStart] == 0x09 { valueStart += 1 }
        while valueEnd > valueStart, bytes[valueEnd - 1] == 0x20 || bytes[valueEnd - 1] == 0x09 { valueEnd -= 1 }
        return (fieldName(bytes, start..<colon), valueStart..<valueEnd)
    }

    private static func fieldName(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> FieldName {
        func named(_ name: StaticString) -> Bool {
            guard range.count == name.utf8CodeUnitCount else { return false }
            let expected = UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount)
            for offset in 0..<range.count where lowercased(bytes[range.lowerBound + offset]) != expected[offset] {
                return false
            }
            return true
        }
        switch range.count {
        case 14: return named("content-length") ? .contentLength : .ignored
        case 17: return named("transfer-encoding") ? .transferEncoding : .ignored
        case 6: return named("expect") ? .expect : .ignored
        case 7: return named("upgrade") ? .upgrade : .ignored
        case 4: return named("host") ? .host : .ignored
        case 13:
            return named("if-none-match")
                ? .ifNoneMatch
                : named("authorization") ? .authorization : named("livery-client") ? .liveryClient : .ignored
        case 15: return named("accept-encoding") ? .acceptEncoding : .ignored
        case 10: return named("connection") ? .connection : .ignored
        default: return .ignored
        }
    }

    /// Whether a `Connection` value lists the `close` option.
    private static func containsClose(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> Bool {
        let text = String(decoding: bytes[range], as: UTF8.self).lowercased()
        return text.split(separator: ",").contains { String($0).trimmingSpaces == "close" }
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }

    /// RFC 9110 §5.6.2 tchar: a letter, a digit or one of ``!#$%&'*+-.^_`|~``.
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "!"), UInt8(ascii: "#")...UInt8(ascii: "'"),
            UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "^"),
            UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }
}
