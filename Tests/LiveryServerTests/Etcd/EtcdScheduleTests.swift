import Foundation
import LiveryServer
import LiveryTestSupport
import LiveryTesting
import Testing

/// A schedule on etcd: two daemons on one prefix, one clock; each step is taken by exactly one
/// of them.
@Suite(.heavy, .timeLimit(.minutes(3))) struct EtcdScheduleTests {
    @Test("a scheduled push runs within a second of its time, on exactly one of two daemons")
    func scheduledPushRunsOnceOnTime() async throws {
        let clock = ManualClock()
        try await EtcdCluster.with { cluster in
            try await TestDaemon.onEtcd(cluster, configure: { $0.scheduleClock = clock }) { a in
                try await TestDaemon.onEtcd(cluster, configure: { $0.scheduleClock = clock }) { b in
                    let stable = try await a.publishAndWait(TestDaemon.exampleFiles())
                    #expect(try await b.serves(stable))
                    let id = try await a.schedulePush(
                        accent: "#FF9500", at: clock.now.addingTimeInterval(1800), message: "scheduled orange")
                    // b learns of the plan from etcd.
                    #expect(try await TestDaemon.eventually { try await b.scheduled(id) != nil })
                    clock.advance(by: 1799)
                    try await Task.sleep(for: .milliseconds(300))
                    #expect(try await a.bundleETag() == stable, "the push ran before its time")
                    clock.advance(by: 1)
                    let moved = ContinuousClock.now
                    #expect(try await TestDaemon.eventually { try await a.bundleETag() != stable })
                    #expect(try await TestDaemon.eventually { try await b.bundleETag() != stable })
                    #expect(ContinuousClock.now - moved < .seconds(1))
                    #expect(try await TestDaemon.eventually { try await b.scheduleState(id) == ("done", ["done"]) })
                    try await Task.sleep(for: .milliseconds(300))
                    let history = try await a.http.get("/v1/history").json()["entries"] as? [[String: Any]] ?? []
                    let pushes = history.filter { $0["message"] as? String == "scheduled orange" }
                    #expect(pushes.count == 1, "\(history)")
                }
            }
        }
    }
}
