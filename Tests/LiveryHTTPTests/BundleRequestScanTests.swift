@_spi(LiveryInternal) import LiveryHTTP
import Testing

/// The raw reader of plain bundle requests accepts only the plainest heads, and says exactly
/// where they end and where their `If-None-Match` value is.
@Suite struct BundleRequestScanTests {
    private func scan(_ text: String, maxHeadBytes: Int = 8192) -> BundleRequestScan.Result {
        Array(text.utf8).withUnsafeBytes { BundleRequestScan.scan($0, maxHeadBytes: maxHeadBytes) }
    }

    @Test func aPlainRequestEndsAfterItsEmptyLine() {
        let head = "GET /v1/spec HTTP/1.1\r\nHost: x\r\nAccept: */*\r\n\r\n"
        #expect(scan(head) == .bundle(length: head.utf8.count, ifNoneMatch: nil, closes: false, host: 29..<30))
        // A second request behind it is not read.
        #expect(
            scan(head + "GET /healthz HTTP/1.1\r\n\r\n")
                == .bundle(length: head.utf8.count, ifNoneMatch: nil, closes: false, host: 29..<30))
        #expect(scan("GET /v1/spec HTTP/1.1\r\n\r\n") == .bundle(length: 25, ifNoneMatch: nil, closes: false))
    }

    @Test func aPlainRequestForTheStylesheetIsReadTheSameWay() {
        let head = "GET /v1/css HTTP/1.1\r\nHost: x\r\nIf-None-Match: \"abc\"\r\n\r\n"
        #expect(
            scan(head)
                == .bundle(
                    length: head.utf8.count, ifNoneMatch: 46..<51, closes: false, styleSheet: true, host: 28..<29))
        #expect(
            scan("HEAD /v1/css HTTP/1.1\r\n\r\n")
                == .bundle(length: 25, ifNoneMatch: nil, closes: false, isHead: true, styleSheet: true))
        #expect(scan("GET /v1/c") == .incomplete)
        #expect(scan("GET /v1/css HTTP/1.1\r\n") == .incomplete)
        #expect(scan("GET /v1/css/abc HTTP/1.1\r\n\r\n") == .other)
        #expect(scan("GET /v1/cssx HTTP/1.1\r\n\r\n") == .other)
        #expect(scan("GET /v1/css?wait=1s HTTP/1.1\r\n\r\n") == .other)
    }

    @Test func aHeadRequestIsReadLikeAGet() {
        let head = "HEAD /v1/spec HTTP/1.1\r\nHost: x\r\nIf-None-Match: \"abc\"\r\n\r\n"
        #expect(
            scan(head)
                == .bundle(length: head.utf8.count, ifNoneMatch: 48..<53, closes: false, isHead: true, host: 30..<31))
        #expect(scan("HEAD /v1/spec HTTP/1.1\r\n") == .incomplete)
        #expect(scan("HEAD /v1/spec?wait=1s HTTP/1.1\r\n\r\n") == .other)
        #expect(scan("HEAT /v1/spec HTTP/1.1\r\n\r\n") == .other)
    }

    @Test func theAcceptEncodingValueIsFoundOnceAndTrimmed() {
        let head = "GET /v1/spec HTTP/1.1\r\naccept-ENCODING:  gzip, br \r\n\r\n"
        guard case .bundle(_, nil, false, false, let range?, false, nil, nil) = scan(head) else {
            Issue.record("not read: \(scan(head))")
            return
        }
        #expect(String(decoding: Array(head.utf8)[range], as: UTF8.self) == "gzip, br")
        #expect(scan("GET /v1/spec HTTP/1.1\r\nAccept-Encoding: gzip\r\nAccept-Encoding: br\r\n\r\n") == .other)
    }

    @Test func theConditionValueIsFoundTrimmedWhateverTheNameCase() {
        let head = "GET /v1/spec HTTP/1.1\r\nHost: x\r\nif-NONE-match: \t\"abc\" \r\n\r\n"
        guard case .bundle(_, let range?, false, false, nil, false, _?, nil) = scan(head) else {
            Issue.record("not read: \(scan(head))")
            return
        }
        #expect(String(decoding: Array(head.utf8)[range], as: UTF8.self) == "\"abc\"")
    }

    @Test func theHostAndAuthorizationValuesAreFoundOnceAndTrimmed() {
        let head = "GET /v1/spec HTTP/1.1\r\nHOST:  localhost:7878 \r\nauthorization: Bearer abc\r\n\r\n"
        guard case .bundle(_, nil, false, false, nil, false, let host?, let authorization?) = scan(head) else {
            Issue.record("not read: \(scan(head))")
            return
        }
        #expect(String(decoding: Array(head.utf8)[host], as: UTF8.self) == "localhost:7878")
        #expect(String(decoding: Array(head.utf8)[authorization], as: UTF8.self) == "Bearer abc")
        // Two of either: the parser's path refuses the request (400) or joins the values.
        #expect(scan("GET /v1/spec HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n") == .other)
        #expect(scan("GET /v1/spec HTTP/1.1\r\nAuthorization: a\r\nAuthorization: b\r\n\r\n") == .other)
    }

    @Test(arguments: ["close", "Close", "keep-alive, close", "CLOSE , foo"])
    func connectionCloseIsSeen(value: String) {
        let head = "GET /v1/spec HTTP/1.1\r\nConnection: \(value)\r\n\r\n"
        #expect(scan(head) == .bundle(length: head.utf8.count, ifNoneMatch: nil, closes: true))
    }

    @Test func otherConnectionOptionsDoNotClose() {
        let head = "GET /v1/spec HTTP/1.1\r\nConnection: keep-alive, closed\r\n\r\n"
        #expect(scan(head) == .bundle(length: head.utf8.count, ifNoneMatch: nil, closes: false))
    }

    @Test(arguments: [
        "GET /v1/spec?wait=30s HTTP/1.1\r\n\r\n",  // a query: a long-poll
        "GET /v1/specs HTTP/1.1\r\n\r\n",
        "GET /v1/spec/ HTTP/1.1\r\n\r\n",
        "OPTIONS /v1/spec HTTP/1.1\r\n\r\n",
        "get /v1/spec HTTP/1.1\r\n\r\n",
        "GET /v1/spec HTTP/1.0\r\n\r\n",
        "GET  /v1/spec HTTP/1.1\r\n\r\n",
        "GET /v1/%73pec HTTP/1.1\r\n\r\n",
        "GET /v1/spec HTTP/1.1\nHost: x\n\n",  // bare LF
        "GET /v1/spec HTTP/1.1\r\nHost: x\n\r\n",
        "GET /v1/spec HTTP/1.1\r\nHost: x\rx\r\n\r\n",  // bare CR
        "GET /v1/spec HTTP/1.1\r\nContent-Length: 0\r\n\r\n",
        "GET /v1/spec HTTP/1.1\r\ncontent-length: 5\r\n\r\nhello",
        "GET /v1/spec HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
        "GET /v1/spec HTTP/1.1\r\nExpect: 100-continue\r\n\r\n",
        "GET /v1/spec HTTP/1.1\r\nUpgrade: websocket\r\n\r\n",
        "GET /v1/spec HTTP/1.1\r\nIf-None-Match: \"a\"\r\nIf-None-Match: \"b\"\r\n\r\n",  // a list on two lines
        "GET /v1/spec HTTP/1.1\r\nHost: x\r\n folded\r\n\r\n",  // obs-fold
        "GET /v1/spec HTTP/1.1\r\n: empty name\r\n\r\n",
        "GET /v1/spec HTTP/1.1\r\nNo colon\r\n\r\n",
        "GET /v1/spec HTTP/1.1\r\nBad name: x\r\n\r\n",
        "GET /v1/spec HTTP/1.1\r\nX: a\u{0}b\r\n\r\n",  // NUL
        "GET /v1/spec HTTP/1.1\r\nX: a\u{7F}\r\n\r\n",  // DEL
        "PUT /v1/specs/a.yaml HTTP/1.1\r\n\r\n",
        "",
    ])
    func anythingElseIsLeftToTheParser(text: String) {
        if text.isEmpty {
            #expect(scan(text) == .incomplete)  // nothing yet: may still become one
        } else {
            #expect(scan(text) == .other, "\(text.debugDescription)")
        }
    }

    @Test(arguments: [
        "G", "GET /v1/sp", "GET /v1/spec HTTP/1.1\r", "GET /v1/spec HTTP/1.1\r\nHost: x\r\n",
        "GET /v1/spec HTTP/1.1\r\nHost: x\r\n\r",
    ])
    func aHeadNotWholeYetIsIncomplete(text: String) {
        #expect(scan(text) == .incomplete)
    }

    @Test func aHeadOverTheLimitIsLeftToTheParser() {
        let head = "GET /v1/spec HTTP/1.1\r\nX-Pad: \(String(repeating: "a", count: 200))\r\n\r\n"
        #expect(
            scan(head, maxHeadBytes: head.utf8.count)
                == .bundle(length: head.utf8.count, ifNoneMatch: nil, closes: false))
        #expect(scan(head, maxHeadBytes: head.utf8.count - 1) == .other)
        // Incomplete and already at the limit: it can only end beyond it.
        let cut = String(decoding: head.utf8.dropLast(2), as: UTF8.self)  // "\r\n" is one Character
        #expect(scan(cut, maxHeadBytes: cut.utf8.count + 1) == .incomplete)
        #expect(scan(cut, maxHeadBytes: cut.utf8.count) == .other)
    }
}
