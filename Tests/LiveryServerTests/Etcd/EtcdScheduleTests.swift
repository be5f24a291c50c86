import Foundation
import LiveryServer
import LiveryTestSupport
import LiveryTesting
import Testing

/// A schedule on etcd: two daemons on one prefix, one clock; each step is taken by exactly one
/// of them, a push's and a promotion's.
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

    @Test("a scheduled promotion runs once, on one of two daemons, with the source's files as planned")
    func scheduledPromotionRunsOnce() async throws {
        let clock = ManualClock()
        try await EtcdCluster.with { cluster in
            try await TestDaemon.onEtcd(cluster, configure: { $0.scheduleClock = clock }) { a in
                try await TestDaemon.onEtcd(cluster, configure: { $0.scheduleClock = clock }) { b in
                    let stable = try await a.publishAndWait(
                        TestDaemon.exampleFiles().merging(["old.yaml": "specs:\n  old: []\n"]) { $1 })
                    let created = try await a.http.post(
                        "/v1/environments", json: #"{"name": "staging", "from": "default"}"#)
                    #expect(created.status == 201, "\(created.text)")
                    let staged = try await Self.push(
                        a,
                        [
                            "palette.yaml": Self.palette("#FF9500"), "old.yaml": nil,
                            "title.yaml": "specs:\n  title: []\n",
                        ])
                    let body = try JSONSerialization.data(withJSONObject: [
                        "action": "promotion", "from": "staging", "message": "scheduled promotion",
                        "at": ScheduleTime.text(of: clock.now.addingTimeInterval(1800)),
                    ])
                    let planned = try await a.http.post("/v1/schedule", json: String(decoding: body, as: UTF8.self))
                    #expect(planned.status == 201, "\(planned.text)")
                    let id = try #require(try planned.json()["id"] as? String)
                    #expect(try await TestDaemon.eventually { try await b.scheduled(id) != nil })
                    // Staging moves on after the plan: what runs is what was planned.
                    _ = try await Self.push(b, ["palette.yaml": Self.palette("#30D158")])

                    clock.advance(by: 1800)
                    #expect(try await TestDaemon.eventually { try await a.bundleETag() == staged })
                    #expect(try await TestDaemon.eventually { try await b.bundleETag() == staged })
                    #expect(stable != staged)
                    #expect(try await TestDaemon.eventually { try await b.scheduleState(id) == ("done", ["done"]) })
                    try await Task.sleep(for: .milliseconds(300))
                    let history = try await a.http.get("/v1/history").json()["entries"] as? [[String: Any]] ?? []
                    let promotions = history.filter {
                        ($0["message"] as? String)?.hasSuffix(": scheduled promotion") == true
                    }
                    #expect(promotions.count == 1, "\(history)")
                    #expect(
                        (promotions.first?["message"] as? String)?.hasPrefix("promoted from staging at revision ")
                            == true)
                }
            }
        }
    }

    static func palette(_ accent: String) -> String { "variables:\n  colors:\n    accent: \"\(accent)\"\n" }

    /// Publishes `files` to staging through `daemon`; the ETag of the bundle they make.
    static func push(_ daemon: TestDaemon, _ files: [String: String?]) async throws -> String {
        let body = try JSONSerialization.data(withJSONObject: [
            "files": files.mapValues { $0.map { $0 as Any } ?? NSNull() }
        ])
        let reply = try await daemon.http.post(
            "/v1/environments/staging/specs", json: String(decoding: body, as: UTF8.self))
        guard reply.status == 200, let etag = try reply.json()["etag"] as? String else {
            throw HTTPTestError("publish to staging answered \(reply.status): \(reply.text)")
        }
        return etag
    }
}
