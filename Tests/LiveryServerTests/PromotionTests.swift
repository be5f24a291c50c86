import Foundation
import Livery
@_spi(LiveryInternal) import LiveryHTTP
import LiveryTestSupport
import LiveryTesting
import LiveryWatch
import Logging
import Testing

@testable import LiveryServer

/// A promotion between two spec sets, each a real daemon on its own folder (or etcd prefix):
/// the target's files become exactly the source's, through the target's one write path.
@Suite(.timeLimit(.minutes(2))) struct PromotionTests {
    /// Staging: the example with a red accent and a new file; production: the example with a
    /// file staging does not have.
    private static func stagingAndProduction(
        _ body: (_ staging: TestDaemon, _ production: TestDaemon) async throws -> Void
    ) async throws {
        let staging = try TemporarySpecFolder(prefix: "livery-staging")
        try TestDaemon.writeExample(to: staging, accent: "#FF0000")
        try staging.write("title.yaml", "specs:\n  title:\n    - { type: CornerRadius, radius: 2 }\n")
        let production = try TemporarySpecFolder(prefix: "livery-production")
        try TestDaemon.writeExample(to: production)
        try production.write("old.yaml", "specs:\n  old: []\n")
        try await TestDaemon.with(folder: staging) { staging in
            try await TestDaemon.with(folder: production) { production in try await body(staging, production) }
        }
    }

    private static func promotion(from staging: TestDaemon, to production: TestDaemon) -> Promotion {
        Promotion(sourceName: "staging", source: staging.daemon.writer, target: production.daemon.writer)
    }

    @Test func aPromotionCopiesTheFilesExactlyAndRecordsWhereTheyCameFrom() async throws {
        try await Self.stagingAndProduction { staging, production in
            let stagingETag = try #require(try await staging.bundleETag())
            #expect(try await production.bundleETag() != stagingETag)
            let result = try await Self.promotion(from: staging, to: production).promote(
                .current, message: "", author: "ci", precondition: .none)
            #expect(result.paths == ["old.yaml", "palette.yaml", "title.yaml"])
            #expect(result.bundleETag.description == stagingETag)
            #expect(try await production.serves(stagingETag))
            #expect(try Self.contents(of: production.folder) == Self.contents(of: staging.folder))
            let newest = try #require(try await production.daemon.writer.store.history(limit: 1).first)
            #expect(newest.message == "promoted from staging at revision 1")
            #expect(newest.by == "ci")
            #expect(newest.paths == ["old.yaml", "palette.yaml", "title.yaml"])
            // Promoting the same version again changes nothing and records nothing.
            _ = try await Self.promotion(from: staging, to: production).promote(
                .revision(1), message: "again", author: "ci", precondition: .none)
            #expect(try await production.daemon.writer.store.history(limit: 10).count == 2)
        }
    }

    @Test func aPromotionByETagFindsTheVersionInTheHistory() async throws {
        try await Self.stagingAndProduction { staging, production in
            let first = try #require(try await staging.bundleETag())
            try await staging.publishAndWait(["title.yaml": nil], message: "no title")
            let promoted = try await Self.promotion(from: staging, to: production).promote(
                .etag(EntityTag(opaque: EntityTag.opaque(of: first))), message: "the first", author: "ci",
                precondition: .none)
            #expect(promoted.bundleETag.description == first)
            #expect(
                try await production.daemon.writer.store.history(limit: 1).first?.message
                    == "promoted from staging at revision 1: the first")
            await #expect(throws: RolloutError.self) {
                try await Self.promotion(from: staging, to: production).promote(
                    .etag(EntityTag(of: Data("nothing".utf8))), message: "", author: "ci", precondition: .none)
            }
        }
    }

    @Test func aSourceThatDoesNotLoadIsRefusedAndNothingChanges() async throws {
        let broken = try TemporarySpecFolder(prefix: "livery-broken")
        try broken.write("card.yaml", "specs:\n  card:\n    - { type: Nope }\n")
        let state = try TemporarySpecFolder(prefix: "livery-state")
        let store = FolderSpecStore(
            directory: broken.url, limits: .default, watch: WatchConfiguration(),
            recordFile: { state.url.appending(path: $0) },
            history: FolderHistory(folder: state.url.appending(path: "history"), limit: 10),
            logger: Logger(label: "livery.test") { _ in SwiftLogNoOpLogHandler() })
        try await TestDaemon.with { production in
            let before = try Self.contents(of: production.folder)
            let etag = try await production.bundleETag()
            let promotion = Promotion(
                sourceName: "broken",
                source: SpecWriter(store: store, configuration: production.daemon.configuration),
                target: production.daemon.writer)
            do throws(RolloutError) {
                _ = try await promotion.promote(.current, message: "", author: "ci", precondition: .none)
                Issue.record("a set that does not load was promoted")
            } catch {
                guard case .store(.invalid(let errors)) = error else { throw error }
                #expect(errors.first?.message.contains("Nope") == true, "\(errors)")
            }
            #expect(try Self.contents(of: production.folder) == before)
            #expect(try await production.bundleETag() == etag)
            #expect(try await production.daemon.writer.store.history(limit: 10).count == 1)
        }
    }

    @Test func ofTwoPromotionsRacingWithTheSameIfMatchOneWins() async throws {
        try await Self.stagingAndProduction { staging, production in
            try await TestDaemon.with { other in
                try await other.publishAndWait(TestDaemon.exampleFiles(accent: "#00FF00"), message: "green")
                let current = try #require(try await production.bundleETag())
                let condition = try #require(EntityTagCondition(headerValues: [current]))
                let fromOther = Promotion(
                    sourceName: "other", source: other.daemon.writer, target: production.daemon.writer)
                async let first = Self.outcome {
                    try await Self.promotion(from: staging, to: production).promote(
                        .current, message: "", author: "a", precondition: .bundle(condition))
                }
                async let second = Self.outcome {
                    try await fromOther.promote(.current, message: "", author: "b", precondition: .bundle(condition))
                }
                let outcomes = await [first, second]
                #expect(outcomes.filter { $0 == "ok" }.count == 1, "\(outcomes)")
                #expect(outcomes.filter { $0 == "412" }.count == 1, "\(outcomes)")
                #expect(try await production.daemon.writer.store.history(limit: 10).count == 2)
            }
        }
    }

    @Test func aPromotionWithARolloutStartsOneAndLeavesTheStableVersion() async throws {
        try await Self.stagingAndProduction { staging, production in
            let stable = try await production.bundleETag()
            let before = try Self.contents(of: production.folder)
            let candidate = try await Self.promotion(from: staging, to: production).promote(
                .current, message: "", author: "ci", precondition: .none,
                rollout: (production.daemon.rollouts, basisPoints: 2500))
            #expect(candidate.bundleETag.description == (try await staging.bundleETag()))
            let signal = try await production.http.get("/v1/version").json()["rollout"] as? [String: Any]
            #expect(signal?["candidate"] as? String == candidate.bundleETag.description)
            #expect(signal?["percent"] as? Double == 25)
            let rollout = try await production.http.get("/v1/rollout").json()
            #expect(rollout["message"] as? String == "promoted from staging at revision 1")
            #expect(try await production.bundleETag() == stable)
            #expect(try Self.contents(of: production.folder) == before)
        }
    }

    @Test func thePreviewListsTheFilesAndTheIdentifiersWhoseTraitsChange() async throws {
        try await Self.stagingAndProduction { staging, production in
            let promotion = Self.promotion(from: staging, to: production)
            let preview = try await promotion.preview(try await promotion.origin(.current))
            #expect(preview.added == ["title.yaml"])
            #expect(preview.changed == ["palette.yaml"])
            #expect(preview.removed == ["old.yaml"])
            #expect(preview.identifiers.map(\.identifier) == ["card", "old", "title"])
            let card = try #require(preview.identifiers.first)
            #expect(card.before?.first?.traits.first?.contains("BackgroundColor") == true)
            #expect(card.before?.first?.traits != card.after?.first?.traits)
            #expect(preview.identifiers[1].after == nil)
            #expect(preview.identifiers[2].before == nil)
            #expect(preview.identifiers[2].after?.first?.traits == [#"CornerRadius {"radius":2}"#])
        }
    }

    @Test(.heavy) func onEtcdAPromotionIsOneTransactionBetweenPrefixes() async throws {
        try await EtcdCluster.with { cluster in
            try await TestDaemon.onEtcd(cluster, prefix: "/staging/") { staging in
                try await TestDaemon.onEtcd(cluster, prefix: "/production/") { production in
                    var files = TestDaemon.exampleFiles(accent: "#FF0000")
                    files["title.yaml"] = "specs:\n  title: []\n"
                    let etag = try await staging.publishAndWait(files, message: "staged")
                    try await production.publishAndWait(
                        TestDaemon.exampleFiles().merging(["old.yaml": "specs:\n  old: []\n"]) { $1 })
                    let revision = try #require(try await staging.daemon.writer.store.history(limit: 1).first?.revision)
                    let result = try await Self.promotion(from: staging, to: production).promote(
                        .current, message: "", author: "ci", precondition: .none)
                    #expect(try await production.serves(etag))
                    let keys = try await cluster.etcdctl(["get", "--prefix", "--keys-only", "/production/specs/"])
                    #expect(
                        keys.split(separator: "\n").sorted() == [
                            "/production/specs/card.yaml", "/production/specs/palette.yaml",
                            "/production/specs/title.yaml",
                        ])
                    let newest = try #require(try await production.daemon.writer.store.history(limit: 1).first)
                    // One transaction: the publish record was created at the revision of the files.
                    #expect(newest.revision == result.revision)
                    #expect(newest.message == "promoted from staging at revision \(revision)")
                }
            }
        }
    }

    /// `ok`, or the status of the problem a promotion was refused with.
    private static func outcome(_ body: () async throws -> SpecWriter.Result) async -> String {
        do {
            _ = try await body()
            return "ok"
        } catch let error as RolloutError {
            return "\(error.problem.statusCode)"
        } catch {
            return "\(error)"
        }
    }

    /// Every file of `folder` by path, its bytes as text.
    private static func contents(of folder: TemporarySpecFolder) throws -> [String: String] {
        let sources = try SpecSourceSet(directory: folder.url)
        return sources.files.mapValues { String(decoding: $0.data, as: UTF8.self) }
    }
}
