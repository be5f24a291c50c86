import Foundation
import LiveryTestSupport
import LiveryTesting
import Testing

@testable import LiveryServer

/// 20,000 forged `Livery-Client` reports against a real `livery serve`: the fleet table stays
/// bounded, `GET /v1/clients` stays small and quick, and a lagging instance cannot be hidden.
@Suite(.heavy, .timeLimit(.minutes(5))) struct ForgedClientsTests {
    /// The largest reports a header allows: every field and all 16 identifiers at the longest.
    private static func forged(_ index: Int) throws -> String {
        let long = String(repeating: "x", count: ClientIdentity.maxFieldBytes - 12)
        let identity = try ClientIdentity(
            name: "forger-\(index % 7)-" + long.prefix(100), instance: "\(index)-" + long,
            appVersion: "9.9-" + long)
        let skipped = (0..<LiveryClientHeader.maxListedSkipped).map { "id-\(index)-\($0)-" + long }
        return LiveryClientHeader(identity: identity, applied: "\"forged-\(index)\"", skipped: skipped).fieldValue
    }

    private static func residentBytes(of pid: Int32) throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") })
        let kilobytes = try #require(Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]))
        return kilobytes * 1024
    }

    @Test func twentyThousandForgedClientsLeaveTheFleetSmallAndTheLaggardVisible() async throws {
        let specs = try TemporarySpecFolder(prefix: "livery-forged")
        try TestDaemon.writeExample(to: specs)
        let runtime = try TemporarySpecFolder(prefix: "livery-runtime")
        let serve = try await Subprocess(
            ["serve", specs.url.path, "--port", "0", "--log-level", "error"],
            environment: ["XDG_RUNTIME_DIR": runtime.url.path])
        defer { if serve.process.isRunning { serve.process.interrupt() } }
        try #require(
            try await TestDaemon.eventually(timeout: .seconds(10)) { serve.stdout.contains("on http://") },
            "serve did not start; stderr: \(serve.stderr)")
        let base = try #require(serve.stdout.firstMatch(of: /on (http:\/\/127\.0\.0\.1:\d+)/)?.1).description
        let http = HTTP(base: base, token: "")
        let pid = serve.process.processIdentifier
        let current = try #require(try await http.get("/v1/spec").header("ETag"))

        // The instance that lags, and a forged report that it converged.
        let victim = try ClientIdentity(name: "shop-web", instance: "host-1", appVersion: "2.4.1")
        let lagging = LiveryClientHeader(identity: victim, applied: "\"old\"").fieldValue
        _ = try await http.get("/healthz", headers: [("Livery-Client", lagging)])
        let before = try Self.residentBytes(of: pid)

        let flood = 20_000
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<32 {
                group.addTask {
                    for index in stride(from: worker, to: flood, by: 32) {
                        let reply = try await http.get("/healthz", headers: [("Livery-Client", try Self.forged(index))])
                        guard reply.status == 200 else {
                            throw HTTPTestError("forged report \(index): \(reply.status)")
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        _ = try await http.get(
            "/healthz",
            headers: [("Livery-Client", LiveryClientHeader(identity: victim, applied: current).fieldValue)])

        var times: [Duration] = []
        var reply = try await http.get("/v1/clients")
        for _ in 0..<5 {
            let start = ContinuousClock.now
            reply = try await http.get("/v1/clients")
            times.append(ContinuousClock.now - start)
        }
        let grown = try Self.residentBytes(of: pid) - before
        let fleet = try JSONDecoder().decode(FleetStatus.self, from: reply.body)
        let median = times.sorted()[2]
        print("forged clients: /v1/clients \(reply.body.count) bytes, median \(median), RSS +\(grown / 1024) KiB")
        #expect(reply.status == 200)
        #expect(reply.body.count <= FleetStatus.maxBytes)
        #expect(median < .milliseconds(250), "GET /v1/clients took \(times)")
        // Each forged report lists 16 identifiers: the budget of identifiers fills before the
        // budget of clients, and holds the newest reports it can.
        let fits = ClientTable.defaultSkippedCapacity / LiveryClientHeader.maxListedSkipped
        #expect(fleet.clients == min(ClientTable.defaultCapacity, fits + 1), "the forged that fit and the victim")
        #expect(!fleet.complete, "clients were dropped for room: the table says it cannot vouch for convergence")
        #expect(fleet.evicted >= flood - 10_000)
        #expect(grown < 96 * 1024 * 1024, "RSS grew by \(grown / 1024) KiB")

        // The forged convergence lasts until the instance's own next report.
        #expect(fleet.converged == 1)
        _ = try await http.get("/healthz", headers: [("Livery-Client", lagging)])
        let after = try JSONDecoder().decode(FleetStatus.self, from: try await http.get("/v1/clients").body)
        #expect(after.converged == 0)
        #expect(after.notConverged.first?.instance == "host-1")

        serve.process.terminate()
        #expect(try await serve.exitStatus() == 0, "stderr: \(serve.stderr)")
    }
}
