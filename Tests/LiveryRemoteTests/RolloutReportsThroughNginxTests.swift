import Foundation
import LiveryHTTP
import LiveryRemote
import LiveryServer
import LiveryTestSupport
import LiveryTesting
import NIOHTTP1
import Testing

/// A rollout's automatic abort through the shipped nginx front (`deploy/nginx/livery.conf`),
/// which holds the version signal's waits itself and caches the versions, so the daemon sees
/// few of the clients' `Livery-Client` headers: a refusal or a problem report reaches it only
/// because the client sends it at once, `POST /v1/reports`, which nginx passes through.
@Suite(.heavy, .timeLimit(.minutes(5)), .inotifyShared, .serialized)
struct RolloutReportsThroughNginxTests {
    /// A daemon, nginx in front of it, and 200 followers of the front at radius 1.
    static func start(
        roundOnly: Bool
    ) async throws -> (RunningDaemon, NginxFront, RolloutFleet, [TemporarySpecFolder]) {
        let folder = try TemporarySpecFolder(prefix: "livery-reports-nginx")
        let state = try TemporarySpecFolder(prefix: "livery-reports-nginx-state")
        try folder.write("box.yaml", RolloutFleetTests.yaml(radius: 1))
        let frontPort = try FreePort.pick()
        let daemon = try await RunningDaemon.start(folder: folder) {
            $0.stateDirectory = state.url
            $0.warmFronts = [URL(string: "http://127.0.0.1:\(frontPort)")!]
        }
        let front = try await NginxFront(daemonPorts: [daemon.port], port: frontPort)
        let fleet = RolloutFleet(
            count: RolloutFleetTests.followers, url: front.baseURL, roundOnly: roundOnly, wait: .seconds(30))
        try await eventually { fleet.hasConverged { _ in 1 } }
        return (daemon, front, fleet, [folder, state])
    }

    /// The rollout's state as the daemon says it.
    static func status(_ daemon: RunningDaemon) async throws -> [String: Any] {
        try await RolloutFleetTests.call(daemon, .GET, "/v1/rollout").1
    }

    @Test("a candidate the cohort refuses is aborted by the daemon through nginx")
    func refusalAbortsThroughNginx() async throws {
        let (daemon, front, fleet, folders) = try await Self.start(roundOnly: true)
        defer { withExtendedLifetime(folders) {} }
        let rollout = try await RolloutFleetTests.startRollout(daemon, radius: 2, share: "10%", opacity: true)
        try await eventually { try await Self.status(daemon)["state"] as? String == "aborted" }
        let status = try await Self.status(daemon)
        #expect(status["id"] as? String == rollout.id)
        #expect((status["abortReason"] as? String ?? "").contains("refusal by follower-"), "\(status)")
        #expect(fleet.hasConverged { _ in 1 })
        await fleet.stop()
        try front.stop()
        await daemon.stop()
    }

    @Test("a problem one cohort client reports aborts the rollout through nginx")
    func problemAbortsThroughNginx() async throws {
        let (daemon, front, fleet, folders) = try await Self.start(roundOnly: false)
        defer { withExtendedLifetime(folders) {} }
        try await RolloutFleetTests.expectProblemReportAborts(daemon, fleet)
        await fleet.stop()
        try front.stop()
        await daemon.stop()
    }
}
