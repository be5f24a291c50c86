import Foundation
import LiveryTesting
import Testing

/// Clients polling `GET /v1/specs` must not hold pushes up: the listing is made once per store
/// version, not read and hashed again per request on the store's actor, where commits queue.
@Suite(.heavy, .timeLimit(.minutes(5))) struct ListingPollTests {
    /// 60 files of 16 KiB each: a listing reads and hashes about 1 MiB.
    private static func largeFolder() throws -> TemporarySpecFolder {
        let folder = try TemporarySpecFolder(prefix: "livery-listing")
        try TestDaemon.writeExample(to: folder)
        let padding = String(repeating: "# " + String(repeating: "x", count: 62) + "\n", count: 256)
        for index in 0..<60 {
            try folder.write("bulk/f\(index).yaml", padding + "specs:\n  bulk\(index): []\n")
        }
        return folder
    }

    private static func medianPush(_ server: TestDaemon, count: Int, round: Int) async throws -> Duration {
        var times: [Duration] = []
        for index in 0..<count {
            let start = ContinuousClock.now
            let reply = try await server.http.put(
                "/v1/specs/pushed.yaml", "specs:\n  pushed\(round)x\(index): []\n")
            times.append(ContinuousClock.now - start)
            guard reply.status == 200 || reply.status == 201 else {
                throw HTTPTestError("push answered \(reply.status): \(reply.text)")
            }
        }
        return times.sorted()[count / 2]
    }

    @Test func pushesWhileEightClientsPollTheListingAreAsQuickAsOnAnIdleDaemon() async throws {
        try await TestDaemon.with(folder: try Self.largeFolder()) { server in
            _ = try await Self.medianPush(server, count: 3, round: 0)  // warm up
            let idle = try await Self.medianPush(server, count: 15, round: 1)

            let pollers = (0..<8).map { _ in
                Task { () -> Int in
                    var polls = 0
                    while !Task.isCancelled {
                        guard let reply = try? await server.http.get("/v1/specs"), reply.status == 200 else { break }
                        polls += 1
                        try? await Task.sleep(for: .milliseconds(10))
                    }
                    return polls
                }
            }
            try await Task.sleep(for: .milliseconds(200))
            let busy = try await Self.medianPush(server, count: 15, round: 2)
            for poller in pollers { poller.cancel() }
            var polls = 0
            for poller in pollers { polls += await poller.value }

            print("listing polls: idle push median \(idle), with 8 pollers \(busy), \(polls) polls")
            #expect(polls >= 8 * 4, "the pollers kept polling through the pushes")
            #expect(busy <= idle * 2, "median push \(busy) with 8 pollers, \(idle) idle")
        }
    }
}
