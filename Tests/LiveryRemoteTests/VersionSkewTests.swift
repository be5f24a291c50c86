import AsyncHTTPClient
import Foundation
import Livery
import LiveryServer
import LiveryTestSupport
import LiveryTesting
import Logging
import NIOCore
import NIOFoundationEssentialsCompat
import Synchronization
import Testing

@testable import LiveryRemote

/// Keeps every log message with its metadata, to check what a follower logged.
private final class LogRecorder: Sendable {
    private let lines = Mutex<[(message: String, metadata: Logger.Metadata)]>([])

    var entries: [(message: String, metadata: Logger.Metadata)] { lines.withLock { $0 } }

    var logger: Logger {
        Logger(label: "livery.skew.test") { _ in Handler(recorder: self) }
    }

    private struct Handler: LogHandler {
        let recorder: LogRecorder
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let merged = metadata.merging(event.metadata ?? [:]) { $1 }
            recorder.lines.withLock { $0.append(("\(event.message)", merged)) }
        }
    }
}

/// Version skew with the real daemon and a real follower: a spec that uses a trait type the
/// follower's program does not have.
@Suite(.timeLimit(.minutes(1)), .inotifyShared)
struct VersionSkewTests {
    private static let first = """
        specs:
          box:
            - { type: CornerRadius, radius: 4 }
          badge:
            - { type: CornerRadius, radius: 2 }
        """
    /// `badge` gains a Sparkle beside a new radius; `box` changes too.
    private static let withSparkle = """
        specs:
          box:
            - { type: CornerRadius, radius: 8 }
          badge:
            - { type: CornerRadius, radius: 9 }
            - { type: Sparkle, level: 0.5 }
        """
    private static let withoutSparkle = """
        specs:
          box:
            - { type: CornerRadius, radius: 8 }
          badge:
            - { type: CornerRadius, radius: 11 }
        """

    private static func configuration(_ policy: UnknownTraitPolicy) throws -> RemoteSpecSource.Configuration {
        RemoteSpecSource.Configuration(
            connectTimeout: .seconds(2), backoff: Backoff(base: .milliseconds(50), cap: .milliseconds(300)),
            identity: try ClientIdentity(name: "skew-test", instance: "old-1", appVersion: "1.0"),
            unknownTraits: policy)
    }

    /// The daemon's `GET /v1/clients`, over HTTP.
    private static func fleetStatus(of daemon: RunningDaemon) async throws -> FleetStatus {
        let response = try await HTTPClient.shared.execute(
            HTTPClientRequest(url: daemon.url.appending(path: "v1/clients").absoluteString), timeout: .seconds(5))
        let body = try await response.body.collect(upTo: 1 << 20)
        return try JSONDecoder().decode(FleetStatus.self, from: Data(buffer: body))
    }

    private static func header(of daemon: RunningDaemon) -> LiveryClientHeader? {
        daemon.daemon.clients.entries().first { $0.header.identity.instance == "old-1" }?.header
    }

    @Test("skipIdentifier: a follower without a trait type keeps that identifier, applies the rest, and says so")
    @MainActor func skipsTheIdentifierAndAppliesTheRest() async throws {
        let folder = try TemporarySpecFolder(prefix: "livery-skew")
        try folder.write("card.yaml", Self.first)
        let daemon = try await RunningDaemon.start(folder: folder, registry: try Sparkle.registry())
        let logs = LogRecorder()
        let provider = TraitsProvider(logger: logs.logger)
        let box = StyledBox()
        let badge = StyledBox()
        provider.register(box, as: "box")
        provider.register(badge, as: "badge")
        var reports: [LoadReport] = []
        var observed: [LoadReport] = []
        provider.addObserver { observed.append($0) }
        let configuration = try Self.configuration(.skipIdentifier)
        let follow = Task {
            await provider.follow(
                url: daemon.url, mode: .version(wait: .seconds(1)), configuration: configuration, logger: logs.logger
            ) { result in
                if case .success(let report) = result { reports.append(report) }
            }
        }
        try await eventually { box.cornerRadius == 4 && badge.cornerRadius == 2 }
        let badgeBefore = badge.snapshot

        try folder.atomicSave("card.yaml", Self.withSparkle)
        try await eventually { box.cornerRadius == 8 }
        let report = try #require(reports.last)
        let skipped = try #require(report.skippedIdentifiers.first)
        #expect(report.skippedIdentifiers.map(\.identifier) == ["badge"])
        #expect(skipped.traitType == "Sparkle")
        // The place is in the bundle as served: one line of JSON at the daemon's URL.
        #expect(skipped.location.file.hasPrefix(daemon.url.absoluteString))
        #expect(skipped.location.line == 1 && skipped.location.column > 1)
        #expect(report.changedIdentifiers == ["box"])
        #expect(badge.snapshot == badgeBefore, "the skipped identifier keeps exactly its old traits")
        #expect(observed.last == report, "observers get the same report")
        #expect("\(skipped)".hasSuffix(": warning: 'badge' kept on its last good traits: unknown trait type 'Sparkle'"))
        let warning = try #require(logs.entries.first { $0.message.hasPrefix("identifier kept") })
        #expect(warning.metadata["livery.identifier"] == "badge")
        #expect(warning.metadata["livery.traitType"] == "Sparkle")
        #expect(warning.metadata["livery.location"] == "\(skipped.location)")
        #expect(logs.entries.contains { $0.message == "applied spec" && $0.metadata["livery.skipped"] == "badge" })

        // The header, and so the daemon's fleet status, say which identifier was skipped.
        try await eventually { Self.header(of: daemon)?.skipped == ["badge"] }
        let status = try await Self.fleetStatus(of: daemon)
        #expect(status.skipped.map(\.identifier) == ["badge"])
        #expect(status.converged == 1, "the version was applied, with one identifier skipped")

        // A later spec without the unknown type applies that identifier again.
        try folder.atomicSave("card.yaml", Self.withoutSparkle)
        try await eventually { badge.cornerRadius == 11 }
        #expect(reports.last?.skippedIdentifiers == [])
        #expect(reports.last?.changedIdentifiers == ["badge"])
        try await eventually { Self.header(of: daemon)?.skipped == [] }
        let after = try await Self.fleetStatus(of: daemon)
        #expect(after.skipped.isEmpty)
        follow.cancel()
        await follow.value
        await daemon.stop()
        #expect(badge.opacity == 1, "the unknown trait never applied")
    }

    @Test("rejectSpec (the default): the same spec is refused whole, with the unknown type's place")
    @MainActor func rejectsTheWholeSpecByDefault() async throws {
        let folder = try TemporarySpecFolder(prefix: "livery-skew")
        try folder.write("card.yaml", Self.first)
        let daemon = try await RunningDaemon.start(folder: folder, registry: try Sparkle.registry())
        let provider = TraitsProvider()
        let box = StyledBox()
        let badge = StyledBox()
        provider.register(box, as: "box")
        provider.register(badge, as: "badge")
        var refusals: [SpecError] = []
        #expect(RemoteSpecSource.Configuration().unknownTraits == .rejectSpec)
        let configuration = try Self.configuration(RemoteSpecSource.Configuration().unknownTraits)
        let follow = Task {
            await provider.follow(url: daemon.url, mode: .version(wait: .seconds(1)), configuration: configuration) {
                result in
                if case .failure(let error as SpecError) = result { refusals.append(error) }
            }
        }
        try await eventually { box.cornerRadius == 4 && badge.cornerRadius == 2 }
        try await eventually { Self.header(of: daemon)?.applied != nil }
        let applied = try #require(Self.header(of: daemon)?.applied)
        let before = [box.snapshot, badge.snapshot]

        try folder.atomicSave("card.yaml", Self.withSparkle)
        try await eventually { !refusals.isEmpty }
        let error = try #require(refusals.first)
        #expect(error.code == .unknownTrait)
        #expect(error.location.line == 1, "the bundle is one line of JSON")
        #expect(error.message.hasPrefix("unknown trait type 'Sparkle'"))
        // Give it another round trip: still nothing applied, the old version still reported.
        try await Task.sleep(for: .milliseconds(300))
        #expect([box.snapshot, badge.snapshot] == before)
        #expect(Self.header(of: daemon)?.applied == applied)
        #expect(Self.header(of: daemon)?.skipped == [])
        follow.cancel()
        await follow.value
        await daemon.stop()
    }
}
