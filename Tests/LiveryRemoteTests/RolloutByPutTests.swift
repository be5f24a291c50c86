import AsyncHTTPClient
import Foundation
import Livery
import LiveryRemote
import LiveryServer
import LiveryTestSupport
import LiveryTesting
import NIOCore
import NIOHTTP1
import Testing

/// `PUT /v1/specs/{path}?rollout=P%` starts a rollout of one file, as a publish with a `rollout`
/// field does: validated like the write, `If-Match` the file's ETag, the stable version untouched,
/// and exactly the formula's clients of 100 real followers apply the candidate.
@Suite(.heavy, .timeLimit(.minutes(5)), .inotifyShared)
struct RolloutByPutTests {
    static let followers = 100

    /// `PUT /v1/specs/box.yaml` with `query`, the push token and `If-Match`; the status and body.
    static func put(
        _ daemon: RunningDaemon, _ text: String, query: String, ifMatch: String? = nil
    ) async throws -> (Int, [String: Any]) {
        var request = HTTPClientRequest(url: daemon.url.absoluteString + "/v1/specs/box.yaml" + query)
        request.method = .PUT
        request.headers.add(name: "Authorization", value: "Bearer \(RolloutFleetTests.token)")
        if let ifMatch { request.headers.add(name: "If-Match", value: ifMatch) }
        request.body = .bytes(ByteBuffer(string: text))
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(10))
        let body = try await response.body.collect(upTo: 1 << 20)
        let object = (try? JSONSerialization.jsonObject(with: Data(body.readableBytesView))) as? [String: Any]
        return (Int(response.status.code), object ?? [:])
    }

    @Test func aPutWithARolloutServesTheFileToTheFormulasShareOnly() async throws {
        let folder = try TemporarySpecFolder(prefix: "livery-rollout-put")
        let state = try TemporarySpecFolder(prefix: "livery-rollout-put-state")
        try folder.write("box.yaml", RolloutFleetTests.yaml(radius: 1))
        let daemon = try await RunningDaemon.start(folder: folder) { $0.stateDirectory = state.url }
        defer { Task { await daemon.stop() } }
        let fleet = RolloutFleet(count: Self.followers, url: daemon.url)
        defer { Task { await fleet.stop() } }
        try await eventually { fleet.hasConverged { _ in 1 } }
        let (_, before) = try await RolloutFleetTests.call(daemon, .GET, "/v1/version")
        let stable = try #require(before["etag"] as? String)

        let candidate = RolloutFleetTests.yaml(radius: 2)
        let (badShare, problem) = try await Self.put(daemon, candidate, query: "?rollout=150%25")
        #expect(badShare == 400, "\(problem)")
        let (stale, _) = try await Self.put(
            daemon, candidate, query: "?rollout=10%25", ifMatch: #""0000000000000000""#)
        #expect(stale == 412)
        let (invalid, _) = try await Self.put(daemon, "specs: [", query: "?rollout=10%25")
        #expect(invalid == 422)
        let (failedRollout, _) = try await RolloutFleetTests.call(daemon, .GET, "/v1/rollout")
        #expect(failedRollout == 404, "a refused candidate starts no rollout")

        let (status, body) = try await Self.put(daemon, candidate, query: "?rollout=10%25")
        #expect(status == 200, "\(body)")
        let rollout = try RolloutFleetTests.rollout(body)
        #expect(rollout.basisPoints == 1000 && rollout.state == .running && rollout.stable == stable)
        let tenth = Set((0..<Self.followers).filter { rollout.includes(instance: RolloutFleet.instance($0)) })
        try await eventually { fleet.hasConverged { tenth.contains($0) ? 2 : 1 } }
        try await Task.sleep(for: .milliseconds(300))  // nobody else moves later
        #expect(fleet.hasConverged { tenth.contains($0) ? 2 : 1 })
        #expect(try String(contentsOf: folder.url("box.yaml"), encoding: .utf8) == RolloutFleetTests.yaml(radius: 1))
        let (_, after) = try await RolloutFleetTests.call(daemon, .GET, "/v1/version")
        #expect(after["etag"] as? String == stable, "the stable version stays")
    }
}
