import Testing

@testable import LiveryRemote

@Suite struct ServerSentEventParserTests {
    /// Feeds `text` cut into chunks of `size` bytes, then ends the stream.
    private func parse(
        _ text: String, chunk size: Int, lastEventID: String = ""
    ) throws -> (events: [ServerSentEvent], lastEventID: String) {
        var parser = ServerSentEventParser(maxBytes: 1 << 20, lastEventID: lastEventID)
        let bytes = Array(text.utf8)
        var events: [ServerSentEvent] = []
        var start = 0
        while start < bytes.count {
            let end = min(start + size, bytes.count)
            events += try parser.feed(bytes[start..<end])
            start = end
        }
        return (events, parser.lastEventID)
    }

    private static let chunkSizes = [1, 2, 3, 7, 1 << 20]

    @Test("a spec event as the daemon writes it, cut anywhere", arguments: chunkSizes)
    func daemonEvent(chunk: Int) throws {
        let text = "retry: 1000\n\n: heartbeat\n\nid: \"abc\"\nevent: spec\ndata: {\"specs\": {}}\n\n"
        let (events, lastID) = try parse(text, chunk: chunk)
        #expect(events == [ServerSentEvent(type: "spec", data: #"{"specs": {}}"#, lastEventID: #""abc""#)])
        #expect(lastID == #""abc""#)
    }

    @Test("CRLF, LF and CR line ends, a CRLF split between chunks", arguments: chunkSizes)
    func lineEnds(chunk: Int) throws {
        let text = "data: a\r\n\r\ndata: b\n\ndata: c\r\rdata: d\r\n\n"
        let (events, _) = try parse(text, chunk: chunk)
        #expect(events.map(\.data) == ["a", "b", "c", "d"])
        #expect(events.allSatisfy { $0.type == "message" })
    }

    @Test("data lines join with LF; one leading space is dropped, others kept", arguments: chunkSizes)
    func multiLineData(chunk: Int) throws {
        let text = "data:first\ndata:  second\ndata\ndata: third\n\n"
        let (events, _) = try parse(text, chunk: chunk)
        #expect(events.map(\.data) == ["first\n second\n\nthird"])
    }

    @Test("comments, unknown fields and events without data dispatch nothing", arguments: chunkSizes)
    func commentsAndEmptyEvents(chunk: Int) throws {
        let text = ": hello\n\nfoo: bar\n\nevent: spec\n\nid: 7\n\ndata: x\n\n"
        let (events, lastID) = try parse(text, chunk: chunk)
        // The data-less event with id 7 still sets the last event ID; its type does not leak.
        #expect(events == [ServerSentEvent(type: "message", data: "x", lastEventID: "7")])
        #expect(lastID == "7")
    }

    @Test("an event cut off by the end of the stream is not dispatched", arguments: chunkSizes)
    func missingTrailingBlankLine(chunk: Int) throws {
        let (events, lastID) = try parse("id: 1\ndata: done\n\nid: 2\ndata: partial\n", chunk: chunk)
        #expect(events.map(\.data) == ["done"])
        #expect(lastID == "1")
        let (none, _) = try parse("data: no newline at all", chunk: chunk)
        #expect(none.isEmpty)
    }

    @Test("the last event ID persists across events and connections; NUL ids are ignored")
    func lastEventIDPersists() throws {
        let (events, lastID) = try parse("data: a\n\nid: x\u{0}y\ndata: b\n\n", chunk: 3, lastEventID: "previous")
        #expect(events.map(\.lastEventID) == ["previous", "previous"])
        #expect(lastID == "previous")
        let (cleared, clearedID) = try parse("id\ndata: c\n\n", chunk: 1, lastEventID: "previous")
        #expect(cleared.map(\.lastEventID) == [""])
        #expect(clearedID == "")
    }

    @Test("retry takes only ASCII digits")
    func retry() throws {
        var parser = ServerSentEventParser(maxBytes: 1024)
        _ = try parser.feed(Array("retry: 2500\n\n".utf8))
        #expect(parser.reconnectionTime == .milliseconds(2500))
        _ = try parser.feed(Array("retry: 12ms\nretry: -1\nretry:\n\n".utf8))
        #expect(parser.reconnectionTime == .milliseconds(2500))
    }

    @Test("a leading byte order mark is dropped; multi-byte characters survive any cut", arguments: chunkSizes)
    func byteOrderMarkAndUTF8(chunk: Int) throws {
        let (events, _) = try parse("\u{FEFF}data: Grüße 🎨\n\n", chunk: chunk)
        #expect(events.map(\.data) == ["Grüße 🎨"])
    }

    @Test("a line longer than the limit is refused")
    func limit() throws {
        var parser = ServerSentEventParser(maxBytes: 16)
        #expect(throws: ServerSentEventParser.TooLarge.self) {
            _ = try parser.feed(Array("data: \(String(repeating: "x", count: 32))\n\n".utf8))
        }
    }
}
