import Foundation
import LiveryTestSupport
import LiveryTesting
import LiveryWatch
import Synchronization
import Testing

/// `provider.follow(directory:loader:)` with remote includes: fetched through the loader's
/// fetcher after each scan (again on every reload), refused when not allowed.
@Suite(.timeLimit(.minutes(1)), .inotifyShared) struct FollowRemoteIncludeTests {
    typealias Outcome = Result<LoadReport, any Error>

    /// Serves one document from memory and counts the fetches (the HTTP fetcher has its own
    /// tests against a real server in LiveryServerTests).
    final class CountingFetcher: RemoteIncludeFetcher {
        let fetches = Mutex(0)
        let document: String

        init(document: String) { self.document = document }

        func fetch(_ url: RemoteIncludeURL) async -> FetchedInclude {
            fetches.withLock { $0 += 1 }
            return .document(Data(document.utf8), .yaml)
        }
    }

    static let card =
        "include: ['https://cdn.example.com/brand/palette.yaml']\nspecs: { card: [{ type: BackgroundColor, color: '@colors.accent' }] }\n"

    @MainActor @Test func fetchesOnEveryReloadAndAppliesTheRemoteVariables() async throws {
        let folder = try TemporarySpecFolder()
        try folder.write("card.yaml", Self.card)
        let fetcher = CountingFetcher(document: "variables: { colors: { accent: '#FF375F' } }\n")
        let loader = SpecFolderLoader(
            allowList: try IncludeAllowList(["https://cdn.example.com/brand/"]), fetcher: fetcher)
        let provider = TraitsProvider()
        let card = StyledBox()
        provider.register(card, as: "card")
        let (outcomes, sink) = AsyncStream.makeStream(of: Outcome.self)
        let following = Task { await provider.follow(directory: folder.url, loader: loader) { sink.yield($0) } }
        var iterator = outcomes.makeAsyncIterator()

        _ = try #require(await iterator.next()).get()
        #expect(card.backgroundColor == Color(hex: "#FF375F"))
        try folder.atomicSave("card.yaml", Self.card + "# edited\n")
        _ = try #require(await iterator.next()).get()
        #expect(fetcher.fetches.withLock { $0 } == 2)
        following.cancel()
        await following.value
    }

    @MainActor @Test func withoutAnAllowListTheIncludeIsRefusedAndNothingIsFetched() async throws {
        let folder = try TemporarySpecFolder()
        try folder.write("card.yaml", Self.card)
        let fetcher = CountingFetcher(document: "variables: {}\n")
        let provider = TraitsProvider()
        let (outcomes, sink) = AsyncStream.makeStream(of: Outcome.self)
        let following = Task {
            await provider.follow(directory: folder.url, loader: SpecFolderLoader(fetcher: fetcher)) { sink.yield($0) }
        }
        var iterator = outcomes.makeAsyncIterator()
        guard case .failure(let error) = try #require(await iterator.next()) else {
            Issue.record("expected the remote include to be refused")
            return
        }
        #expect("\(error)".hasPrefix("card.yaml:1:11: error: remote includes are off"))
        #expect(fetcher.fetches.withLock { $0 } == 0)
        following.cancel()
        await following.value
    }
}
