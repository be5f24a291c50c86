import Foundation
import LiveryTestSupport
import LiveryTesting
import Synchronization
import Testing

/// Clients polling `GET /v1/specs` must not hold pushes up: the listing is made once per store
/// version, not read and hashed again per request on the store's actor, where commits queue.
///
/// The control is the same load on `GET /v1/status`, which reads the daemon's state and never
/// the store: as many clients at the same pace cost a push the machine's CPU and the HTTP server
/// alike, so only what the listing adds on the store shows between the two medians. A push
/// made cheaper (a faster reader) shortens both.
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

    /// What the pollers ask for during a round of pushes, in the order the rounds take.
    private enum Load: Int, AtomicRepresentable, CaseIterable {
        case status, listing, idle

        /// The endpoint polled, none when idle.
        var path: String? {
            switch self {
            case .status: "/v1/status"
            case .listing: "/v1/specs"
            case .idle: nil
            }
        }
    }

    /// Clients polling at once: twice the connections the test's HTTP client keeps to one host,
    /// so that every connection has a poll outstanding and a push waits its turn for one.
    private static let pollerCount = 16

    /// The load of the current round.
    private final class Round: Sendable {
        let load = Atomic(Load.idle)
    }

    /// Rounds of pushes under each load alternate, one of each at a time, so that whatever else
    /// the machine does (other tests run in parallel) weighs on every median alike. The idle
    /// round follows the listing's, so that listing polls still in flight end before the next
    /// status round.
    @Test func pushesWhileClientsPollTheListingAreAsQuickAsWhileTheyPollTheStatus() async throws {
        try await TestDaemon.with(folder: try Self.largeFolder()) { server in
            _ = try await Self.pushes(server, count: 3, round: 0)  // warm up
            let round = Round()
            let pollers = (0..<Self.pollerCount).map { _ in
                Task { () -> [Load: Int] in
                    var polls: [Load: Int] = [:]
                    while !Task.isCancelled {
                        let load = round.load.load(ordering: .relaxed)
                        guard let path = load.path else {
                            try? await Task.sleep(for: .milliseconds(5))
                            continue
                        }
                        guard let reply = try? await server.http.get(path), reply.status == 200 else { break }
                        polls[load, default: 0] += 1
                        try? await Task.sleep(for: .milliseconds(10))
                    }
                    return polls
                }
            }
            var times: [Load: [Duration]] = [:]
            for index in 0..<(5 * Load.allCases.count) {
                let load = Load.allCases[index % Load.allCases.count]
                round.load.store(load, ordering: .relaxed)
                // Polls in flight end, or the pollers get going.
                try await Task.sleep(for: .milliseconds(150))
                times[load, default: []] += try await Self.pushes(server, count: 3, round: index + 1)
            }
            for poller in pollers { poller.cancel() }
            var polls: [Load: Int] = [:]
            for poller in pollers { polls.merge(await poller.value, uniquingKeysWith: +) }

            let median = times.mapValues { $0.sorted()[$0.count / 2] }
            let idle = median[.idle] ?? .zero
            let status = median[.status] ?? .zero
            let listing = median[.listing] ?? .zero
            print(
                "listing polls: median push idle \(idle), while \(Self.pollerCount) clients poll the status \(status), the listing \(listing); \(polls[.status] ?? 0) status and \(polls[.listing] ?? 0) listing polls"
            )
            #expect(
                (polls[.status] ?? 0) >= Self.pollerCount * 4, "the pollers kept polling the status through the pushes")
            #expect(
                (polls[.listing] ?? 0) >= Self.pollerCount * 4,
                "the pollers kept polling the listing through the pushes")
            #expect(listing <= status * 2, "median push \(listing) while polling the listing, \(status) the status")
        }
    }
}
