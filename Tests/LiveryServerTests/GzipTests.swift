import Foundation
import LiveryServer
import LiveryTesting
import Testing

/// Bundle answers honour `Accept-Encoding: gzip` with the representation compressed when the
/// bundle was published, its own strong tag and `Vary`, on the raw path (a plain request) and
/// on the event-loop handler (any other request for the bundle).
@Suite(.timeLimit(.minutes(1))) struct GzipTests {
    static let targets = ["/v1/spec", "/v1/spec?wait=0s"]

    @Test func curlCompressedGetsTheSameBytesAsAPlainGet() async throws {
        try await TestDaemon.with { server in
            for target in Self.targets {
                let plain = try await server.http.get(target)
                let compressed = try await Curl.runForData([
                    "-sS", "--compressed", "\(server.base)\(target)",
                ])
                #expect(compressed == plain.body)
                let head = try await Curl.run([
                    "-sS", "-o", "/dev/null", "-D", "-", "--compressed", "\(server.base)\(target)",
                ])
                #expect(head.contains("Content-Encoding: gzip\r\n"), "\(head)")
            }
        }
    }

    @Test func theGzipAnswerHasItsOwnTagAndVary() async throws {
        let folder = try TemporarySpecFolder(prefix: "livery-gzip")
        try TestDaemon.writeExample(to: folder)
        // A bundle of some size, as real ones are: a tiny one hardly compresses.
        let identifiers = (0..<60).map { "  box\($0):\n    - { type: CornerRadius, radius: \($0) }\n" }
            .joined()
        try folder.write("boxes.yaml", "specs:\n" + identifiers)
        try await TestDaemon.with(folder: folder) { server in
            for target in Self.targets {
                let plain = try await RawResponse.exchange(Self.request(target), port: server.port)
                let gzip = try await RawResponse.exchange(
                    Self.request(target, "Accept-Encoding: gzip, deflate, br\r\n"), port: server.port)
                #expect(plain.field("Content-Encoding") == nil)
                #expect(gzip.field("Content-Encoding") == "gzip")
                for answer in [plain, gzip] { #expect(answer.field("Vary") == "Accept-Encoding") }
                let plainTag = try #require(plain.field("ETag"))
                let gzipTag = try #require(gzip.field("ETag"))
                #expect(plainTag != gzipTag && gzipTag.hasPrefix("\"") && !gzipTag.hasPrefix("W/"))
                #expect(gzip.field("Content-Length") == String(gzip.body.count))
                #expect(
                    gzip.body.count * 2 < plain.body.count, "\(gzip.body.count) of \(plain.body.count) bytes")
                #expect(gzip.body.prefix(2) == Data([0x1F, 0x8B]))
                let refused = try await RawResponse.exchange(
                    Self.request(target, "Accept-Encoding: gzip;q=0, br\r\n"), port: server.port)
                #expect(refused.field("Content-Encoding") == nil && refused.field("ETag") == plainTag)
            }
        }
    }

    /// `If-None-Match` with either tag: the one the client would be sent, or identity, which
    /// every client can use, is a 304 carrying the tag named; a gzip tag from a client that
    /// does not take gzip is no use to it.
    @Test func eitherTagIsAnsweredCorrectly() async throws {
        try await TestDaemon.with { server in
            for target in Self.targets {
                let plainTag = try #require(
                    try await RawResponse.exchange(Self.request(target), port: server.port).field("ETag"))
                let gzipTag = try #require(
                    try await RawResponse.exchange(
                        Self.request(target, "Accept-Encoding: gzip\r\n"), port: server.port
                    ).field("ETag"))
                let cases: [(fields: String, status: Int, etag: String)] = [
                    ("Accept-Encoding: gzip\r\nIf-None-Match: \(gzipTag)\r\n", 304, gzipTag),
                    ("Accept-Encoding: gzip\r\nIf-None-Match: \(plainTag)\r\n", 304, plainTag),
                    ("Accept-Encoding: gzip\r\nIf-None-Match: \"other\", W/\(gzipTag)\r\n", 304, gzipTag),
                    ("If-None-Match: \(plainTag)\r\n", 304, plainTag),
                    ("If-None-Match: \(gzipTag)\r\n", 200, plainTag),
                    ("Accept-Encoding: gzip\r\nIf-None-Match: \"other\"\r\n", 200, gzipTag),
                ]
                for (fields, status, etag) in cases {
                    let answer = try await RawResponse.exchange(
                        Self.request(target, fields), port: server.port)
                    #expect(answer.status == status, "\(fields.debugDescription): \(answer)")
                    #expect(answer.field("ETag") == etag, "\(fields.debugDescription): \(answer)")
                    #expect(answer.field("Vary") == "Accept-Encoding")
                }
            }
        }
    }

    @Test func aLongPollHoldingTheGzipTagWaitsAndWakesWithGzip() async throws {
        try await TestDaemon.with { server in
            let gzipTag = try #require(
                try await RawResponse.exchange(
                    Self.request("/v1/spec", "Accept-Encoding: gzip\r\n"), port: server.port
                ).field("ETag"))
            let start = ContinuousClock.now
            let waited = try await RawResponse.exchange(
                Self.request("/v1/spec?wait=1s", "Accept-Encoding: gzip\r\nIf-None-Match: \(gzipTag)\r\n"),
                port: server.port)
            #expect(
                waited.status == 304 && ContinuousClock.now - start >= .milliseconds(850), "\(waited)")
            let connection = try RawConnection(port: server.port)
            try await connection.send(
                Self.request("/v1/spec?wait=10s", "Accept-Encoding: gzip\r\nIf-None-Match: \(gzipTag)\r\n"))
            try await Task.sleep(for: .milliseconds(200))
            try server.folder.write("extra.yaml", "specs:\n  extra: []\n")
            let (text, _) = try await connection.receiveUntilClosed(timeout: .seconds(5))
            let woken = try RawResponse(text)
            #expect(woken.status == 200 && woken.field("Content-Encoding") == "gzip", "\(woken)")
            #expect(woken.field("ETag") != gzipTag)
        }
    }

    /// An event stream is one long answer whose events must reach the client as they are sent;
    /// it stays uncompressed.
    @Test func eventStreamsStayUncompressed() async throws {
        try await TestDaemon.with { server in
            let connection = try RawConnection(port: server.port)
            try await connection.send(
                "GET /v1/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept-Encoding: gzip\r\n\r\n")
            let text = try await connection.receive(until: "data: ", timeout: .seconds(5))
            #expect(
                text.hasPrefix("HTTP/1.1 200") && !text.lowercased().contains("content-encoding"), "\(text)"
            )
        }
    }

    private static func request(_ target: String, _ fields: String = "") -> String {
        "GET \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n\(fields)Connection: close\r\n\r\n"
    }
}
