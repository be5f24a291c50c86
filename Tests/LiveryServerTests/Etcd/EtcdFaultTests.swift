import Foundation
import LiveryEtcd
import LiveryServer
import LiveryTestSupport
import LiveryTesting
import Synchronization
import Testing

/// Daemons on etcd when etcd goes away: a member stopped (SIGTERM, then SIGKILL) and restarted
/// under a stream of reads and writes, and `kill -9` of the leader of three. One at a time: they measure recovery within seconds.
@Suite(.heavy, .serialized, .timeLimit(.minutes(5))) struct EtcdFaultTests {
    /// Daemon B reaches etcd through a proxy that opens again only once etcd is back and changes
    /// have landed through A and `etcdctl`: without it both daemons' watches would re-attach the
    /// moment etcd listens again, and a watch that resumed from "now" instead of from its last
    /// revision would go unnoticed.
    @Test func etcdStoppedAndRestartedUnderAStreamOfReadsAndWrites() async throws {
        try await EtcdCluster.with { cluster in
            try await TCPProxy.with(upstreamPort: cluster.members[0].clientPort) { proxy in
                try await TestDaemon.onEtcd(cluster) { a in
                    try await TestDaemon.onEtcd(cluster, endpoints: [proxy.url]) { b in
                        let daemons = [a, b]
                        let good = try await a.publishAndWait(TestDaemon.exampleFiles())
                        #expect(try await b.serves(good))
                        let (stream, behind, restarted) = try await ReadWriteStream.run(through: daemons) { stream in
                            let behind = [
                                try await outage("sigterm", of: cluster, under: stream, a: a, b: (b, proxy)) {
                                    await cluster.stop($0)
                                },
                                try await outage("sigkill", of: cluster, under: stream, a: a, b: (b, proxy)) {
                                    await cluster.kill($0)
                                },
                            ]
                            let restarted = ContinuousClock.now
                            try await Task.sleep(for: .milliseconds(300))
                            return (stream, behind, restarted)
                        }

                        #expect(stream.failures.isEmpty, "\(stream.failures)")
                        #expect(stream.reads > 0 && stream.wakes > 0, "reads \(stream.reads), wakes \(stream.wakes)")
                        let writes = stream.writes
                        let unexpected = writes.filter { !(200..<300).contains($0.status) && $0.status != 503 }
                        #expect(unexpected.isEmpty, "\(unexpected.map { "\($0.path): \($0.status) \($0.detail)" })")
                        let notProblems = writes.filter {
                            $0.status == 503 && $0.contentType != "application/problem+json"
                        }
                        #expect(notProblems.isEmpty, "503s of another type: \(notProblems.map(\.path))")
                        #expect(writes.contains { $0.sent > restarted && (200..<300).contains($0.status) })

                        // No missed change: every acknowledged push, and each file written with etcdctl
                        // while B's watch was down, is in what both serve.
                        let names = (stream.acknowledged + behind).map { "\"\($0.dropLast(".yaml".count))\"" }
                        var agreed: String?
                        _ = try await TestDaemon.eventually {
                            let bundleA = try await a.http.get("/v1/spec")
                            let bundleB = try await b.http.get("/v1/spec")
                            guard let etag = bundleA.header("ETag"), bundleB.header("ETag") == etag,
                                names.allSatisfy({ bundleA.text.contains($0) })
                            else { return false }
                            agreed = etag
                            return true
                        }
                        if agreed == nil {
                            for (label, daemon) in [("A", a), ("B", b)] {
                                let text = try await daemon.http.get("/v1/spec").text
                                let missing = names.filter { !text.contains($0) }
                                Issue.record(
                                    "no common bundle with all \(names.count) changes; \(label) lacks \(missing)")
                            }
                        }
                        let fresh = try await TestDaemon.onEtcd(cluster) { fresh in
                            _ = try await TestDaemon.eventually { try await fresh.bundleETag() != nil }
                            return try await fresh.bundleETag()
                        }
                        #expect(agreed == fresh)
                    }
                }
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
                    await cluster.kill(0)
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

    /// Takes member 0 down with `takeDown` while `stream` runs and checks what the daemons serve
    /// while it is down; starts it again on its data folder and ports, lets A's writes land and
    /// writes a file with `etcdctl` while B's proxy is still cut, then opens the proxy and waits
    /// until both daemons are ready. Returns the file written behind their backs.
    private func outage(
        _ name: String, of cluster: EtcdCluster, under stream: ReadWriteStream, a: TestDaemon,
        b: (daemon: TestDaemon, proxy: TCPProxy), takeDown: (Int) async -> Void
    ) async throws -> String {
        let daemons = [a, b.daemon]
        try await Task.sleep(for: .milliseconds(200))
        await takeDown(0)
        b.proxy.set(.cut)
        var served: [String?] = []
        for daemon in daemons {
            #expect(try await TestDaemon.eventually { try await daemon.http.get("/readyz").status == 503 })
            #expect(try await daemon.http.get("/v1/status").json()["staleSince"] is String)
            served.append(try await daemon.bundleETag())
        }
        let allDown = ContinuousClock.now
        try await Task.sleep(for: .milliseconds(300))
        for (daemon, etag) in zip(daemons, served) {
            #expect(etag != nil)
            #expect(try await daemon.bundleETag() == etag, "the last good bundle is served while etcd is \(name)ed")
            #expect(try await daemon.http.get("/readyz").status == 503)
        }
        let restarting = ContinuousClock.now
        let whileDown = stream.writes.filter { $0.sent > allDown && $0.answered < restarting }
        #expect(!whileDown.isEmpty && whileDown.allSatisfy { $0.status == 503 }, "\(whileDown.map(\.status))")

        try await cluster.start(0)
        try await cluster.waitUntilHealthy()
        #expect(
            try await TestDaemon.eventually(timeout: .seconds(10)) {
                try await a.http.get("/readyz").status == 200
            })
        let path = "behind\(name).yaml"
        try await cluster.etcdctl(["put", "/livery/specs/\(path)", "specs:\n  behind\(name): []\n"])
        // A push through A lands while B is still cut off.
        #expect(
            try await TestDaemon.eventually(timeout: .seconds(10)) {
                stream.writes.contains { $0.sent > restarting && (200..<300).contains($0.status) }
            })
        b.proxy.set(.forward)
        for daemon in daemons {
            #expect(
                try await TestDaemon.eventually(timeout: .seconds(10)) {
                    try await daemon.http.get("/readyz").status == 200
                })
            #expect(try await daemon.http.get("/v1/status").json()["staleSince"] == nil)
        }
        return path
    }
}
