/// An incremental parser for `text/event-stream`, following the HTML standard's "interpreting an
/// event stream" (§9.2.6) byte for byte.
///
/// Feed it chunks as they arrive, cut anywhere (even inside a UTF-8 sequence or between the CR
/// and LF of a line end); it keeps the partial line and the event being built between chunks.
/// Lines end with CRLF, LF or CR; a leading byte order mark is dropped; comments (`:` lines) are
/// ignored; `data:` lines are joined by LF; `id:` without NUL sets the last event ID, which
/// persists; `retry:` with only digits sets the reconnection time. An event is dispatched only
/// at a blank line, so an event cut off by the end of the stream is never dispatched.
struct ServerSentEventParser {
    /// A line or an event grew past ``maxBytes``.
    struct TooLarge: Error {}

    /// The most bytes a line or an event's data may hold.
    let maxBytes: Int
    /// The last event ID string: what to send as `Last-Event-ID` when reconnecting.
    private(set) var lastEventID = ""
    /// The reconnection time the server asked for with `retry:`, if it did.
    private(set) var reconnectionTime: Duration?

    private var line: [UInt8] = []
    private var afterCR = false
    private var atStreamStart = true
    private var data = ""
    private var eventType = ""
    private var idBuffer = ""

    /// Creates a parser for a new connection. Pass the last event ID of the previous connection,
    /// so an event that carries no `id:` still reports it.
    init(maxBytes: Int, lastEventID: String = "") {
        self.maxBytes = maxBytes
        self.lastEventID = lastEventID
        self.idBuffer = lastEventID
    }

    /// Parses the next chunk and returns the events it completed, in order.
    mutating func feed<Bytes: Sequence<UInt8>>(_ bytes: Bytes) throws(TooLarge) -> [ServerSentEvent] {
        var events: [ServerSentEvent] = []
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "\r"):
                afterCR = true
                try endLine(into: &events)
            case UInt8(ascii: "\n"):
                // The LF of a CRLF pair ends nothing: the CR already ended the line.
                if afterCR {
                    afterCR = false
                } else {
                    try endLine(into: &events)
                }
            default:
                afterCR = false
                guard line.count < maxBytes else { throw TooLarge() }
                line.append(byte)
            }
        }
        return events
    }

    private mutating func endLine(into events: inout [ServerSentEvent]) throws(TooLarge) {
        var bytes = line[...]
        line.removeAll(keepingCapacity: true)
        if atStreamStart {
            atStreamStart = false
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        }
        guard !bytes.isEmpty else {
            if let event = dispatch() { events.append(event) }
            return
        }
        guard bytes.first != UInt8(ascii: ":") else { return }  // a comment, such as a heartbeat
        // Splitting the bytes is safe: the colon is ASCII and never inside a multi-byte sequence.
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")) else {
            try process(field: String(decoding: bytes, as: UTF8.self), value: "")
            return
        }
        var value = bytes[bytes.index(after: colon)...]
        if value.first == UInt8(ascii: " ") { value = value.dropFirst() }
        try process(
            field: String(decoding: bytes[..<colon], as: UTF8.self), value: String(decoding: value, as: UTF8.self))
    }

    private mutating func process(field: String, value: String) throws(TooLarge) {
        switch field {
        case "event":
            eventType = value
        case "data":
            guard data.utf8.count + value.utf8.count < maxBytes else { throw TooLarge() }
            data += value
            data += "\n"
        case "id":
            if !value.contains("\0") { idBuffer = value }
        case "retry":
            if !value.isEmpty, value.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let milliseconds = Int64(value) {
                reconnectionTime = .milliseconds(milliseconds)
            }
        default:
            break  // the standard says to ignore unknown fields
        }
    }

    private mutating func dispatch() -> ServerSentEvent? {
        lastEventID = idBuffer
        defer {
            data = ""
            eventType = ""
        }
        guard !data.isEmpty else { return nil }
        return ServerSentEvent(
            type: eventType.isEmpty ? "message" : eventType,
            data: String(data.dropLast()),
            lastEventID: lastEventID
        )
    }
}
