import Foundation
import LiveryServer
import Synchronization
import Testing

/// Daemons on etcd when etcd goes away: a stopped and restarted member, and `kill -9` of the
/// leader of three. One at a time: they measure recovery within seconds.
@Suite(.serialized, .timeLimit(.minutes(3))) struct EtcdFaultTests {
    @Test func etcdStoppedAndRestartedUnderReadsAndWrites() async throws {
        try await EtcdCluster.with { cluster in
            try await TestDaemon.onEtcd(cluster) { daemon in
                let good = try await daemon.publishAndWait(TestDaemon.exampleFiles())
                #expect(try await daemon.http.get("/readyz").status == 200)

                cluster.stop(0)
                let stale = try await TestDaemon.eventually {
                    try await daemon.http.get("/readyz").status == 503
                }
                #expect(stale)
                let status = try await daemon.http.get("/v1/status").json()
                #expect(status["staleSince"] is String)
                #expect(try await daemon.http.get("/healthz").status == 200)
                for index in 0..<5 {
                    let read = try await daemon.http.get("/v1/spec")
                    #expect(read.status == 200)
                    #expect(read.header("ETag") == good)
                    let write = try await daemon.http.put(
                        "/v1/specs/while-down\(index).yaml", "specs:\n  down\(index): []\n")
                    #expect(write.status == 503)
                    #expect(write.header("Content-Type") == "application/problem+json")
                }

                try cluster.start(0)
                try await cluster.waitUntilHealthy()
                let ready = try await TestDaemon.eventually(timeout: .seconds(10)) {
                    try await daemon.http.get("/readyz").status == 200
                }
                #expect(ready)
                // The watch resumed: a change made behind the daemon's back arrives.
                try cluster.etcdctl(["put", "/livery/specs/extra.yaml", "specs:\n  extra: []\n"])
                #expect(try await TestDaemon.eventually { try await daemon.bundleETag() != good })
                let write = try await daemon.http.put("/v1/specs/after.yaml", "specs:\n  after: []\n")
                #expect(write.status == 201)
                #expect(try await daemon.http.get("/v1/status").json()["staleSince"] == nil)
            }
        }
    }

    @Test func killingTheLeaderLosesNoAcknowledgedPushAndBothDaemonsAgree() async throws {
        try await EtcdCluster.with(members: 3) { cluster in
            try await TestDaemon.onEtcd(cluster) { a in
                try await TestDaemon.onEtcd(cluster) { b in
                    let first = try await a.publishAndWait(TestDaemon.exampleFiles())
                    #expect(try await b.serves(first))
                    let acknowledged = Mutex<[String]>([])
                    let statuses = Mutex<[Int]>([])
                    let pushes = Task {
                        for index in 0..<60 {
                            let daemon = index % 2 == 0 ? a : b
                            let reply = try await daemon.http.put(
                                "/v1/specs/push\(index).yaml", "specs:\n  push\(index): []\n")
                            statuses.withLock { $0.append(reply.status) }
                            if (200..<300).contains(reply.status) {
                                acknowledged.withLock { $0.append("push\(index).yaml") }
                            }
                            try await Task.sleep(for: .milliseconds(20))
                        }
                    }
                    try await Task.sleep(for: .milliseconds(300))
                    let leader = try #require(try await cluster.leader())
                    cluster.kill(leader)
                    let killed = ContinuousClock.now
                    let newLeader = try await TestDaemon.eventually(timeout: .seconds(10)) {
                        try await cluster.leader() != nil
                    }
                    #expect(newLeader)
                    let elected = ContinuousClock.now
                    try await pushes.value

                    let seen = statuses.withLock { $0 }
                    #expect(seen.allSatisfy { (200..<300).contains($0) || $0 == 503 }, "\(seen)")
                    let files = Set(
                        (try await a.http.get("/v1/specs").json()["files"] as? [[String: Any]] ?? []).compactMap {
                            $0["path"] as? String
                        })
                    for path in acknowledged.withLock({ $0 }) {
                        #expect(files.contains(path), "\(path) was acknowledged but is missing")
                    }

                    // Both daemons serve one ETag within 2 s of the new leader.
                    let agreed = try await TestDaemon.eventually(timeout: .seconds(2)) {
                        let etagA = try await a.bundleETag()
                        let etagB = try await b.bundleETag()
                        return etagA != nil && etagA == etagB
                    }
                    #expect(agreed, "no common ETag 2 s after the election (\(elected - killed) after the kill)")
                }
            }
        }
    }
}
