import Foundation
import Livery
import LiveryServer
import LiveryTestSupport
import LiveryTesting
import NIOHTTP1
import Synchronization
import Testing

/// `kill -9` of a real `livery serve` in the middle of a stream of pushes: every file is the
/// old or the new version, never a mix; no leftover is ever read as a spec; a restarted daemon
/// serves the last good bundle and clears the leftovers.
@Suite(.timeLimit(.minutes(2))) struct KillDuringPushTests {
    /// About 512 KB: big enough that a write takes a while, under the 1 MiB body limit.
    static func version(_ radius: Int) -> Data {
        let padding = String(repeating: "# \(radius) padding, so that a torn write would show\n", count: 10_000)
        return Data("specs:\n  big:\n    - { type: CornerRadius, radius: \(radius) }\n\(padding)".utf8)
    }

    @Test func killDashNineDuringPushesLeavesOldOrNewAndARestartServesIt() async throws {
        let specs = try TemporarySpecFolder(prefix: "livery-kill")
        try TestDaemon.writeExample(to: specs)
        let local = try TemporarySpecFolder(prefix: "livery-kill-token")
        let tokenFile = local.url("token")
        try TestDaemon.token.write(to: tokenFile, atomically: true, encoding: .utf8)
        let versions = [Self.version(1), Self.version(2)]
        let arguments = [
            "serve", specs.url.path, "--port", "0", "--token-file", tokenFile.path, "--log-level", "error",
        ]

        // Three kills, each at a random moment of a push stream; every restart is also the
        // check that the previous kill left a folder the daemon serves as it is on disk.
        for round in 1...3 {
            let serve = try await Subprocess(arguments)
            defer { if serve.process.isRunning { kill(serve.process.processIdentifier, SIGKILL) } }
            let http = HTTP(base: try await Self.baseURL(of: serve), token: TestDaemon.token)
            if round > 1 { try await Self.expectServingWhatIsOnDisk(specs, http: http) }

            // A client pushing alternating versions as fast as the daemon takes them.
            let acknowledged = Acknowledged()
            let pusher = Task {
                var next = round
                while !Task.isCancelled {
                    guard
                        let reply = try? await http.send(
                            .PUT, "/v1/specs/big.yaml", body: versions[next % 2],
                            headers: [("Authorization", "Bearer \(TestDaemon.token)")])
                    else { return }  // the daemon is gone: that is the point of the test
                    #expect([200, 201].contains(reply.status), "\(reply.text)")
                    acknowledged.count.add(1, ordering: .relaxed)
                    next += 1
                }
            }
            let pushing = try await TestDaemon.eventually(timeout: .seconds(30)) {
                acknowledged.count.load(ordering: .relaxed) >= 4
            }
            try #require(pushing, "pushes were not acknowledged; stderr: \(serve.stderr)")
            // Somewhere inside a write: the pusher never pauses between requests.
            try await Task.sleep(for: .milliseconds(Int.random(in: 0...15)))
            kill(serve.process.processIdentifier, SIGKILL)
            await pusher.value
            _ = try await serve.exitStatus()
            #expect(serve.process.terminationReason == .uncaughtSignal)

            let onDisk = try Data(contentsOf: specs.url("big.yaml"))
            #expect(versions.contains(onDisk), "big.yaml is \(onDisk.count) bytes, neither version")
            let entries = try folderEntries(specs)
            #expect(entries.filter { !$0.hasPrefix(".") } == ["big.yaml", "card.yaml", "palette.yaml"])
            // What a kill may leave is a hidden temporary file, which no reader of the folder sees.
            #expect(
                entries.allSatisfy { !$0.hasPrefix(".") || $0.wholeMatch(of: /\.big\.yaml\.livery-[0-9]+\.tmp/) != nil }
            )
        }

        let again = try await Subprocess(arguments)
        defer { if again.process.isRunning { again.process.terminate() } }
        try await Self.expectServingWhatIsOnDisk(
            specs, http: HTTP(base: try await Self.baseURL(of: again), token: TestDaemon.token))
        again.process.terminate()
        #expect(try await again.exitStatus() == 0)
    }

    /// A kill rarely lands inside the few milliseconds a write's temporary file exists, so
    /// what it would leave is also planted by hand: half a file under the temporary name.
    @Test func aTemporaryFileLeftByAKilledWriteIsNeverServedAndIsRemovedAtStart() async throws {
        let specs = try TemporarySpecFolder(prefix: "livery-kill")
        try TestDaemon.writeExample(to: specs)
        try specs.write("sub/extra.yaml", "specs:\n  extra: []\n")
        try specs.write(
            ".card.yaml.livery-3141592653.tmp", "include: [palette.yaml]\nspecs:\n  card:\n    - { type: Back")
        try specs.write("sub/.extra.yaml.livery-42.tmp", "specs:\n  half")
        try await TestDaemon.with(folder: specs) { server in
            #expect(try folderEntries(specs) == ["card.yaml", "palette.yaml", "sub", "sub/extra.yaml"])
            let bundle = try await server.http.get("/v1/spec")
            #expect(bundle.header("ETag") == BundleSnapshot(spec: try Spec(directory: specs.url)).etag.description)
        }
    }

    /// A (re)started daemon serves the folder as it is on disk and has removed the leftovers.
    static func expectServingWhatIsOnDisk(_ specs: TemporarySpecFolder, http: HTTP) async throws {
        #expect(
            try folderEntries(specs) == ["big.yaml", "card.yaml", "palette.yaml"], "leftovers are removed at start")
        let expected = BundleSnapshot(spec: try Spec(directory: specs.url)).etag.description
        let bundle = try await http.get("/v1/spec")
        #expect(bundle.status == 200)
        #expect(bundle.header("ETag") == expected)
    }

    static func baseURL(of serve: Subprocess) async throws -> String {
        let listening = try await TestDaemon.eventually(timeout: .seconds(10)) { serve.stdout.contains("on http://") }
        try #require(listening, "serve did not start; stderr: \(serve.stderr)")
        return try #require(serve.stdout.firstMatch(of: /on (http:\/\/127\.0\.0\.1:\d+)/)?.1).description
    }
}

/// Pushes the daemon answered, counted across tasks.
private final class Acknowledged: Sendable {
    let count = Atomic<Int>(0)
}
