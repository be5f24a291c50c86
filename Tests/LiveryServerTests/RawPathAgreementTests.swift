import Foundation
import LiveryServer
import Testing

/// The raw path sends heads it keeps from one request to the next (made once per published
/// bundle, the `Date` added once a second); these must stay exactly what the event-loop handler
/// sends from the same ``BundleDecision`` answer, for every answer the raw path gives.
@Suite(.timeLimit(.minutes(1))) struct RawPathAgreementTests {
    /// What a client may send with a plain request for the bundle; `ID` stands for the
    /// identity tag, `GZ` for the gzip one.
    static let variants = [
        "", "If-None-Match: ID\r\n", "Accept-Encoding: gzip\r\n", "Accept-Encoding: gzip\r\nIf-None-Match: GZ\r\n",
        "Accept-Encoding: gzip\r\nIf-None-Match: ID\r\n", "If-None-Match: GZ\r\n", "If-None-Match: \"other\"\r\n",
    ]

    /// On one connection: the raw path twice (the second head is the kept one), then the same
    /// request with a query, which the event-loop handler answers. Status, fields but `Date`
    /// and body agree, for `GET` and `HEAD`.
    @Test(arguments: ["GET", "HEAD"]) func rawAnswersMatchTheEventLoopHandlers(method: String) async throws {
        try await TestDaemon.with { server in
            let tags = try await Self.tags(port: server.port)
            for variant in Self.variants {
                let fields = Self.fields(variant, tags)
                let answers = try await Self.exchange(
                    [
                        Self.request(method, "/v1/spec", fields), Self.request(method, "/v1/spec", fields),
                        Self.request(method, "/v1/spec?x=1", fields, close: true),
                    ], port: server.port, isHead: method == "HEAD")
                try #require(answers.count == 3, "\(variant.debugDescription): \(answers)")
                for answer in answers.dropFirst() {
                    #expect(answer.status == answers[0].status, "\(variant.debugDescription)")
                    #expect(answer.fieldLines() == answers[0].fieldLines(), "\(variant.debugDescription)")
                    #expect(answer.body == answers[0].body, "\(variant.debugDescription)")
                }
                #expect(answers[0].field("Date") != nil)
            }
        }
    }

    /// Every variant in turn, as `GET` and as `HEAD`, on one connection's raw path, whose kept
    /// heads then hold several answers at once (a small body kept with its head, the same head
    /// without it for `HEAD`), then each again on a connection of its own through the
    /// event-loop handler: each raw answer is the one its own request asked for.
    @Test func keptHeadsAnswerTheRequestTheyWereKeptFor() async throws {
        try await TestDaemon.with { server in
            let tags = try await Self.tags(port: server.port)
            let cases = Self.variants.flatMap { variant in ["GET", "HEAD"].map { (method: $0, variant: variant) } }
            let requests = cases.map { Self.request($0.method, "/v1/spec", Self.fields($0.variant, tags)) }
            let connection = try RawConnection(port: server.port)
            try await connection.send(
                (requests + requests + [Self.request("GET", "/healthz", close: true)]).joined())
            let (data, closed) = try await connection.receiveDataUntilClosed(timeout: .seconds(10))
            #expect(closed)
            let raw = try Self.split(data) { $0 < 2 * cases.count && cases[$0 % cases.count].method == "HEAD" }
            try #require(raw.count == 2 * cases.count + 1, "\(raw)")
            for (index, (method, variant)) in cases.enumerated() {
                let routed = try await RawResponse.exchange(
                    Self.request(method, "/v1/spec?x=1", Self.fields(variant, tags), close: true), port: server.port)
                for answer in [raw[index], raw[index + cases.count]] {
                    let label = "\(method) \(variant.debugDescription)"
                    #expect(answer.status == routed.status, "\(label)")
                    #expect(answer.fieldLines() == routed.fieldLines(except: ["date", "connection"]), "\(label)")
                    #expect(answer.body == routed.body, "\(label)")
                }
            }
        }
    }

    /// The identity and gzip tags of the current bundle.
    private static func tags(port: Int) async throws -> (identity: String, gzip: String) {
        let identity = try await RawResponse.exchange(Self.request("GET", "/v1/spec", close: true), port: port)
        let gzip = try await RawResponse.exchange(
            Self.request("GET", "/v1/spec", "Accept-Encoding: gzip\r\n", close: true), port: port)
        return (try #require(identity.field("ETag")), try #require(gzip.field("ETag")))
    }

    private static func fields(_ variant: String, _ tags: (identity: String, gzip: String)) -> String {
        variant.replacingOccurrences(of: "ID", with: tags.identity).replacingOccurrences(of: "GZ", with: tags.gzip)
    }

    /// Sends `requests` in one write on a new connection, the last one closing it, and reads
    /// the answers.
    private static func exchange(_ requests: [String], port: Int, isHead: Bool) async throws -> [RawResponse] {
        let connection = try RawConnection(port: port)
        try await connection.send(requests.joined())
        let (data, closed) = try await connection.receiveDataUntilClosed(timeout: .seconds(10))
        #expect(closed)
        return try split(data) { _ in isHead }
    }

    private static func request(
        _ method: String, _ target: String, _ fields: String = "", close: Bool = false
    )
        -> String
    {
        "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n\(fields)\(close ? "Connection: close\r\n" : "")\r\n"
    }

    /// The responses in `data`, each body as long as its `Content-Length` says (none for `304`
    /// and for the answers `isHead` names by their index).
    private static func split(_ data: Data, isHead: (Int) -> Bool) throws -> [RawResponse] {
        var rest = data[...]
        var answers: [RawResponse] = []
        while let end = rest.range(of: Data("\r\n\r\n".utf8)) {
            let head = try RawResponse(Data(rest[..<end.upperBound]))
            let length = isHead(answers.count) || head.status == 304 ? 0 : Int(head.field("Content-Length") ?? "") ?? 0
            let bodyEnd = end.upperBound + length
            guard bodyEnd <= rest.endIndex else { throw HTTPTestError("a body cut short: \(head)") }
            answers.append(try RawResponse(Data(rest[..<bodyEnd])))
            rest = rest[bodyEnd...]
        }
        return answers
    }
}
