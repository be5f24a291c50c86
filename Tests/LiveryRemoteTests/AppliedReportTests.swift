import Foundation
import Livery
import LiveryServer
import LiveryTestSupport
import LiveryTesting
import Testing

@testable import LiveryRemote

/// The daemon learns what a follower applied on the follower's next request, so that request
/// must leave after the apply: with the default 30 s wait, one sent at once would report the old
/// version for the whole wait.
@Suite(.timeLimit(.minutes(1)), .inotifyShared)
struct AppliedReportTests {
    private static func applied(at daemon: RunningDaemon, instance: String) -> String? {
        daemon.daemon.clients.entries().first { $0.header.identity.instance == instance }?.header.applied
    }

    @Test("a follower on the default wait reports a new version soon after applying it, not a wait later")
    @MainActor func theNextRequestReportsTheAppliedVersion() async throws {
        let folder = try TemporarySpecFolder(prefix: "livery-applied-report")
        try folder.write("card.yaml", "specs:\n  box: [{ type: CornerRadius, radius: 4 }]\n")
        let daemon = try await RunningDaemon.start(folder: folder)
        let provider = TraitsProvider()
        let box = StyledBox()
        provider.register(box, as: "box")
        let configuration = RemoteSpecSource.Configuration(
            identity: try ClientIdentity(name: "report-test", instance: "r-1", appVersion: "1.0"))
        #expect(RemoteSpecSource.Mode.version == .version(wait: .seconds(30)))
        let follow = Task { await provider.follow(url: daemon.url, configuration: configuration) }

        try await eventually { box.cornerRadius == 4 }
        let first = "\(try #require(daemon.daemon.hub.snapshot?.etag))"
        try await eventually { Self.applied(at: daemon, instance: "r-1") == first }

        try folder.atomicSave("card.yaml", "specs:\n  box: [{ type: CornerRadius, radius: 8 }]\n")
        try await eventually { box.cornerRadius == 8 }
        let second = "\(try #require(daemon.daemon.hub.snapshot?.etag))"
        #expect(second != first)
        // Well inside the 30 s wait: the request after the apply carries the new version.
        try await eventually { Self.applied(at: daemon, instance: "r-1") == second }

        follow.cancel()
        await follow.value
        await daemon.stop()
    }
}
