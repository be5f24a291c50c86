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
@_spi(LiveryInternal) public enum BundleRequestScan {
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
            let field: (name: FieldName, value: Range<Int>)
            switch line(in: bytes, from: lineStart, limit: limit) {
            case .end(let length):
                return .bundle(
                    length: length, ifNoneMatch: ifNoneMatch, closes: closes, isHead: isHead,
                    acceptEncoding: acceptEncoding, styleSheet: styleSheet, host: host,
                    authorization: authorization)
            case .unfinished:
                return limit == bytes.count && bytes.count < maxHeadBytes ? .incomplete : .other
            case .malformed:
                return .other
            case .field(let name, let value, let next):
                field = (name, value)
                lineStart = next
            }
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
        }
    }

    /// One line of the head after the request line.
    private enum Line {
        /// The empty line that ends the head; the head's length.
        case end(Int)
        /// A header line; `next` is where the line after it starts.
        case field(FieldName, value: Range<Int>, next: Int)
        /// No CRLF before the limit.
        case unfinished
        /// A bare CR or LF, a control character but HTAB, an empty name or one that is not a
        /// token (which also refuses a folded line, starting with a space), no colon.
        case malformed
    }

    private enum FieldName {
        case contentLength, transferEncoding, expect, upgrade, ifNoneMatch, acceptEncoding, connection, liveryClient,
            host, authorization, ignored
    }

    /// Reads the line at `start` in one pass: `name ":" OWS value OWS CRLF`, or the empty line.
    /// The name's bytes are tokens, so only the value's are checked for control characters.
    private static func line(in bytes: UnsafeRawBufferPointer, from start: Int, limit: Int) -> Line {
        var index = start
        while index < limit, bytes[index] != UInt8(ascii: ":") {
            guard isTokenByte(bytes[index]) else {
                guard index == start, bytes[index] == 0x0D else { return .malformed }
                guard index + 1 < limit else { return .unfinished }
                return bytes[index + 1] == 0x0A ? .end(index + 2) : .malformed
            }
            index += 1
        }
        guard index < limit else { return .unfinished }
        guard index > start else { return .malformed }
        let colon = index
        index += 1
        while index < limit, bytes[index] != 0x0D {
            let byte = bytes[index]
            if (byte < 0x20 && byte != 0x09) || byte == 0x7F { return .malformed }
            index += 1
        }
        guard index + 1 < limit else { return .unfinished }
        guard bytes[index + 1] == 0x0A else { return .malformed }
        var valueStart = colon + 1
        var valueEnd = index
        while valueStart < valueEnd, bytes[valueStart] == 0x20 || bytes[valueStart] == 0x09 { valueStart += 1 }
        while valueEnd > valueStart, bytes[valueEnd - 1] == 0x20 || bytes[valueEnd - 1] == 0x09 { valueEnd -= 1 }
        return .field(fieldName(bytes, start..<colon), value: valueStart..<valueEnd, next: index + 2)
    }

    /// The field a name of token bytes stands for.
    private static func fieldName(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> FieldName {
        func named(_ name: StaticString) -> Bool { Self.named(bytes, range, name) }
        switch range.count {
        case 14: return named("content-length") ? .contentLength : .ignored
        case 17: return named("transfer-encoding") ? .transferEncoding : .ignored
        case 6: return named("expect") ? .expect : .ignored
        case 7: return named("upgrade") ? .upgrade : .ignored
        // `Host`, in every request: one word compared in place, as `named` does, without its call.
        case 4:
            return bytes.loadUnaligned(fromByteOffset: range.lowerBound, as: UInt32.self) | 0x2020_2020
                == UInt32(littleEndian: 0x7473_6F68) ? .host : .ignored
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

    /// Whether the token bytes at `range` are `name` (at least 4 bytes of lowercase letters and
    /// `-`) in any case, compared a word at a time: a token byte with its 0x20 bit set is a
    /// given lowercase letter only if it is that letter in either case, and `-` only if it is
    /// `-` (the other byte that gives `-`, CR, is not a token byte).
    private static func named(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>, _ name: StaticString) -> Bool {
        let count = range.count
        guard count == name.utf8CodeUnitCount else { return false }
        let expected = UnsafeRawPointer(name.utf8Start)
        func same<Word: FixedWidthInteger>(at offset: Int, _: Word.Type) -> Bool {
            let caseBits = Word(truncatingIfNeeded: 0x2020_2020_2020_2020 as UInt64)
            return bytes.loadUnaligned(fromByteOffset: range.lowerBound + offset, as: Word.self) | caseBits
                == expected.loadUnaligned(fromByteOffset: offset, as: Word.self)
        }
        guard count >= 8 else { return same(at: 0, UInt32.self) && same(at: count - 4, UInt32.self) }
        for offset in stride(from: 0, to: count - 8, by: 8) where !same(at: offset, UInt64.self) { return false }
        return same(at: count - 8, UInt64.self)
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
