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
                    let stopped = Mutex(false)
                    // One push at a time, alternating daemons, until a second after the new leader.
                    let pushes = Task {
                        var index = 0
                        while !stopped.withLock({ $0 }) {
                            let daemon = index % 2 == 0 ? a : b
                            let reply = try await daemon.http.put(
                                "/v1/specs/push\(index).yaml", "specs:\n  push\(index): []\n")
                            statuses.withLock { $0.append(reply.status) }
                            if (200..<300).contains(reply.status) {
                                acknowledged.withLock { $0.append("push\(index).yaml") }
                            }
                            index += 1
                            try await Task.sleep(for: .milliseconds(20))
                        }
                    }
                    try await Task.sleep(for: .milliseconds(300))
                    // The leader is the member both daemons watch (their first endpoint), so the
                    // kill breaks their watches too.
                    try await cluster.makeLeader(0)
                    cluster.kill(0)
                    let killed = ContinuousClock.now
                    // The new leader exists once a surviving member says it leads.
                    let newLeader = try await TestDaemon.eventually(timeout: .seconds(10)) {
                        try await cluster.leader() != nil
                    }
                    let elected = ContinuousClock.now
                    #expect(newLeader)
                    // Pushes go on through both daemons for a second under the new leader.
                    try await Task.sleep(until: elected + .seconds(1), clock: .continuous)
                    stopped.withLock { $0 = true }
                    try await pushes.value

                    let seen = statuses.withLock { $0 }
                    #expect(seen.allSatisfy { (200..<300).contains($0) || $0 == 503 }, "\(seen)")
                    let stored = Set(
                        try await cluster.client().range(
                            key: "/livery/specs/", rangeEnd: EtcdClient.prefixEnd("/livery/specs/")
                        ).0.map { String($0.key.dropFirst("/livery/specs/".count)) })
                    let acknowledgedPaths = acknowledged.withLock { $0 }
                    let lost = acknowledgedPaths.filter { !stored.contains($0) }
                    #expect(lost.isEmpty, "acknowledged but missing: \(lost)")

                    // Both daemons serve one ETag within 2 s of the new leader, and their bundle
                    // holds every acknowledged push (a daemon whose watch died with the old
                    // leader would miss those acknowledged through the other one).
                    var agreed: (etag: String, after: Duration)?
                    while agreed == nil, ContinuousClock.now < elected + .seconds(2) {
                        let bundleA = try await a.http.get("/v1/spec")
                        let bundleB = try await b.http.get("/v1/spec")
                        if bundleA.status == 200, let etag = bundleA.header("ETag"), bundleB.header("ETag") == etag,
                            acknowledgedPaths.allSatisfy({ bundleA.text.contains("\"\($0.dropLast(5))\"") })
                        {
                            agreed = (etag, ContinuousClock.now - elected)
                        }
                        try await Task.sleep(for: .milliseconds(10))
                    }
                    #expect(
                        agreed != nil,
                        "no common ETag within 2 s of the new leader (elected \(elected - killed) after the kill)")

                    // That ETag is the final state's, as a daemon that reads it afresh serves it.
                    let final = try await TestDaemon.onEtcd(cluster) { fresh in
                        _ = try await TestDaemon.eventually { try await fresh.bundleETag() != nil }
                        return try await fresh.bundleETag()
                    }
                    #expect(agreed?.etag == final)
                }
            }
        }
    }
}
