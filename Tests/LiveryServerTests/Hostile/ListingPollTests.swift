import Foundation
import LiveryTesting
import Synchronization
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

    /// The time of each of `count` pushes.
    private static func pushes(_ server: TestDaemon, count: Int, round: Int) async throws -> [Duration] {
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
        return times
    }

    /// Whether the pollers poll now.
    private final class Polling: Sendable {
        let on = Atomic(false)
    }

    /// Idle and busy pushes alternate, a round of each at a time, so that whatever else the
    /// machine does (other tests run in parallel) weighs on both medians alike.
    @Test func pushesWhileEightClientsPollTheListingAreAsQuickAsOnAnIdleDaemon() async throws {
        try await TestDaemon.with(folder: try Self.largeFolder()) { server in
            _ = try await Self.pushes(server, count: 3, round: 0)  // warm up
            let polling = Polling()
            let pollers = (0..<8).map { _ in
                Task { () -> Int in
                    var polls = 0
                    while !Task.isCancelled {
                        guard polling.on.load(ordering: .relaxed) else {
                            try? await Task.sleep(for: .milliseconds(5))
                            continue
                        }
                        guard let reply = try? await server.http.get("/v1/specs"), reply.status == 200 else { break }
                        polls += 1
                        try? await Task.sleep(for: .milliseconds(10))
                    }
                    return polls
                }
            }
            var idle: [Duration] = []
            var busy: [Duration] = []
            for round in 1...10 {
                let isBusy = round.isMultiple(of: 2)
                polling.on.store(isBusy, ordering: .relaxed)
                // Polls in flight end, or the pollers get going.
                try await Task.sleep(for: .milliseconds(150))
                let times = try await Self.pushes(server, count: 3, round: round)
                if isBusy { busy += times } else { idle += times }
            }
            for poller in pollers { poller.cancel() }
            var polls = 0
            for poller in pollers { polls += await poller.value }

            let idleMedian = idle.sorted()[idle.count / 2]
            let busyMedian = busy.sorted()[busy.count / 2]
            print("listing polls: idle push median \(idleMedian), with 8 pollers \(busyMedian), \(polls) polls")
            #expect(polls >= 8 * 4, "the pollers kept polling through the pushes")
            #expect(busyMedian <= idleMedian * 2, "median push \(busyMedian) with 8 pollers, \(idleMedian) idle")
        }
    }
}
