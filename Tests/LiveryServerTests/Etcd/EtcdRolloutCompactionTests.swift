import Foundation
import LiveryEtcd
import LiveryServer
import LiveryTestSupport
import LiveryTesting
import Testing

/// The rollout is followed by the same prefix watch as the specs, so it survives what the specs'
/// follower survives: a partition during which the revisions it would resume from are compacted.
@Suite(.heavy, .timeLimit(.minutes(5))) struct EtcdRolloutCompactionTests {
    @Test func aRunningRolloutsChangesMadeWhileCutOffAndCompactedArriveOnceHealed() async throws {
        try await EtcdCluster.with { cluster in
            try await TCPProxy.with(upstreamPort: cluster.members[0].clientPort) { proxy in
                try await TestDaemon.onEtcd(cluster) { a in
                    try await TestDaemon.onEtcd(cluster, endpoints: [proxy.url], watchSilenceLimit: .milliseconds(500))
                    {
                        b in
                        try await Self.partition(cluster, proxy: proxy, a: a, b: b)
                    }
                }
            }
        }
    }

    /// Starts a rollout on `a`, silences `b`'s way to etcd until its watch has to be made again,
    /// changes the rollout's share on `a`, compacts every revision, heals the way, and expects
    /// `b` to follow the share, then a later change through the same watch.
    private static func partition(_ cluster: EtcdCluster, proxy: TCPProxy, a: TestDaemon, b: TestDaemon) async throws {
        _ = try await a.publishAndWait(TestDaemon.exampleFiles())
        let started = try await EtcdRolloutTests.startRollout(on: a, percent: "10%", message: "orange accent")
        #expect(started.status == 200, "\(started.text)")
        let id = try #require(try started.json()["id"] as? String)
        #expect(try await TestDaemon.eventually { try await EtcdRolloutTests.signalled(b)?["id"] as? String == id })

        // b's watch falls silent and is made again from the next revision; the request waits
        // in the silenced proxy while that revision is compacted away.
        proxy.set(.silent)
        #expect(try await TestDaemon.eventually { try await b.http.get("/readyz").status == 503 })
        // Two changes, so that the revision b resumes from is older than the compaction.
        for percent in [30, 40] {
            let widened = try await a.http.post(
                "/v1/rollout", json: #"{"action": "set", "percent": \#(percent)}"#, headers: [("If-Match", id)])
            #expect(widened.status == 200, "\(widened.text)")
        }
        let revision = try await cluster.client().status().revision
        try await cluster.etcdctl(["compact", String(revision)])
        proxy.set(.forward)

        #expect(
            try await TestDaemon.eventually(timeout: .seconds(5)) {
                try await EtcdRolloutTests.signalled(b)?["percent"] as? Double == 40
            })
        // The watch goes on from what was read again: a later change arrives too.
        let narrowed = try await a.http.post(
            "/v1/rollout", json: #"{"action": "set", "percent": 20}"#, headers: [("If-Match", id)])
        #expect(narrowed.status == 200, "\(narrowed.text)")
        #expect(
            try await TestDaemon.eventually(timeout: .seconds(5)) {
                try await EtcdRolloutTests.signalled(b)?["percent"] as? Double == 20
            })
    }
}
