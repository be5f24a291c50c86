import Foundation
import Livery
import LiveryRemote
import LiveryTesting
import Testing

/// `HTTPIncludeFetcher` against a real server: statuses, redirects, sizes, formats, timeouts,
/// conditional GETs. (Here rather than in LiveryRemoteTests so one include server serves these
/// tests and the daemon's.)
@Suite(.timeLimit(.minutes(1))) struct IncludeFetcherTests {
    static let palette = "variables:\n  colors: { accent: '#0A84FF' }\n"

    static func url(_ text: String) throws -> RemoteIncludeURL {
        try RemoteIncludeURL(text, at: .start(of: "test"))
    }

    @Test func fetchesA2xxDocumentAndRevalidatesItWithItsETag() async throws {
        try await IncludeServer.with { server in
            server.serve("/brand/palette.yaml", document: Self.palette)
            let fetcher = HTTPIncludeFetcher()
            let url = try Self.url(server.base + "/brand/palette.yaml")
            #expect(await fetcher.fetch(url) == .document(Data(Self.palette.utf8), .yaml))
            #expect(await fetcher.fetch(url) == .document(Data(Self.palette.utf8), .yaml))  // from a 304
            let requests = server.requests
            #expect(requests.count == 2)
            #expect(requests.first?.ifNoneMatch == nil)
            #expect(requests.last?.ifNoneMatch != nil)
        }
    }

    @Test(arguments: [
        ("application/json; charset=utf-8", FetchedInclude.document(Data("{}".utf8), .json)),
        ("text/x-yaml", FetchedInclude.document(Data("{}".utf8), .yaml)),
        (
            "text/html",
            FetchedInclude.failed(
                "the URL has no .json, .yaml or .yml extension and the Content-Type 'text/html' is neither JSON nor YAML"
            )
        ),
    ])
    func withoutAnExtensionTheContentTypeTellsTheFormat(_ contentType: String, _ expected: FetchedInclude) async throws
    {
        try await IncludeServer.with { server in
            server.serve("/brand/palette", .init(body: "{}", headers: ["Content-Type": contentType]))
            let fetched = await HTTPIncludeFetcher().fetch(try Self.url(server.base + "/brand/palette"))
            #expect(fetched == expected)
        }
    }

    @Test(arguments: [(404, "404 Not Found"), (500, "500 Internal Server Error"), (204, nil)])
    func onlyA2xxBodyIsUsed(_ status: Int, _ reason: String?) async throws {
        try await IncludeServer.with { server in
            server.serve("/brand/palette.yaml", .init(status: status, body: status == 204 ? "" : Self.palette))
            let fetched = await HTTPIncludeFetcher().fetch(try Self.url(server.base + "/brand/palette.yaml"))
            #expect(fetched == (reason.map { .failed($0) } ?? .document(Data(), .yaml)))
        }
    }

    @Test func aRedirectIsNotFollowed() async throws {
        try await IncludeServer.with { elsewhere in
            elsewhere.serve("/internal.yaml", document: Self.palette)
            try await IncludeServer.with { server in
                server.serve(
                    "/brand/palette.yaml", .init(status: 302, headers: ["Location": elsewhere.base + "/internal.yaml"]))
                let fetched = await HTTPIncludeFetcher().fetch(try Self.url(server.base + "/brand/palette.yaml"))
                #expect(fetched == .failed("302 Found (redirects are not followed; include the final URL)"))
                #expect(elsewhere.requests.isEmpty)
            }
        }
    }

    @Test(arguments: [false, true])
    func anOversizeDocumentIsRefused(chunked: Bool) async throws {
        try await IncludeServer.with { server in
            let big = "# " + String(repeating: "x", count: 2_000) + "\nspecs: {}\n"
            server.serve("/brand/big.yaml", .init(body: big, chunked: chunked))
            let fetcher = HTTPIncludeFetcher(configuration: .init(limits: ReaderLimits(maxBytes: 1_000)))
            let fetched = await fetcher.fetch(try Self.url(server.base + "/brand/big.yaml"))
            #expect(
                fetched
                    == .failed(
                        chunked
                            ? "the document is larger than the limit of 1000 bytes"
                            : "the document is \(big.utf8.count) bytes; the limit is 1000 bytes"))
        }
    }

    @Test func aServerThatNeverAnswersIsBoundedByTheTimeout() async throws {
        let silent = try SilentListener()
        let fetcher = HTTPIncludeFetcher(configuration: .init(timeout: .milliseconds(300)))
        let clock = ContinuousClock()
        var fetched: FetchedInclude?
        let elapsed = try await clock.measure {
            fetched = await fetcher.fetch(try Self.url("http://127.0.0.1:\(silent.port)/brand/palette.yaml"))
        }
        #expect(fetched == .failed("no complete answer within 0.3 seconds"))
        // 0.3 s alone; the margin is for a full parallel run on two busy cores. Unbounded, the
        // fetch would hang until the suite's time limit.
        #expect(elapsed < .seconds(10))
    }

    @Test func aClosedPortIsAFailureNotACrash() async throws {
        let port = try await IncludeServer.with { $0.port }  // stopped: nothing listens there now
        let fetched = await HTTPIncludeFetcher(configuration: .init(timeout: .seconds(2)))
            .fetch(try Self.url("http://127.0.0.1:\(port)/brand/palette.yaml"))
        guard case .failed = fetched else {
            Issue.record("expected a failure, got \(fetched)")
            return
        }
    }
}
