import Foundation
import LiveryEtcd
import LiveryServer
import LiveryTestSupport
import LiveryTesting
import Testing

/// A daemon that reaches etcd through a real TCP proxy the test breaks: cut off while the
/// revisions it missed are compacted, and partitioned so that its watch stays open but silent.
@Suite(.heavy, .timeLimit(.minutes(5))) struct EtcdPartitionTests {
    @Test func aDaemonCutOffWhileItsRevisionsAreCompactedReadsThePrefixAgain() async throws {
        try await EtcdCluster.with { cluster in
            try await TCPProxy.with(upstreamPort: cluster.members[0].clientPort) { proxy in
                try await TestDaemon.onEtcd(cluster, endpoints: [proxy.url]) { daemon in
                    let before = try await daemon.publishAndWait(TestDaemon.exampleFiles(), message: "before")
                    proxy.set(.cut)
                    #expect(try await TestDaemon.eventually { try await daemon.http.get("/readyz").status == 503 })

                    // Behind the daemon's back: a new accent and a new file, then every revision
                    // up to now compacted, so the daemon's watch cannot resume where it stopped.
                    try await cluster.etcdctl(
                        ["put", "/livery/specs/palette.yaml", "variables:\n  colors:\n    accent: \"#FF3B30\"\n"])
                    try await cluster.etcdctl(["put", "/livery/specs/extra.yaml", "specs:\n  extra: []\n"])
                    let revision = try await cluster.client().status().revision
                    try await cluster.etcdctl(["compact", String(revision)])
                    #expect(try await daemon.bundleETag() == before)

                    let folder = try TemporarySpecFolder(prefix: "livery-compacted")
                    try TestDaemon.writeExample(to: folder, accent: "#FF3B30")
                    try folder.write("extra.yaml", "specs:\n  extra: []\n")
                    let expected = try await TestDaemon.with(folder: folder) { try await $0.bundleETag() }
                    #expect(expected != nil && expected != before)

                    proxy.set(.forward)
                    #expect(try await daemon.serves(expected, within: .seconds(10)))
                    #expect(try await daemon.http.get("/readyz").status == 200)
                    // The watch goes on from the revision read: a later change arrives too.
                    try await cluster.etcdctl(["del", "/livery/specs/extra.yaml"])
                    #expect(
                        try await TestDaemon.eventually {
                            let etag = try await daemon.bundleETag()
                            return etag != nil && etag != expected
                        })
                }
            }
        }
    }

    @Test func anEtcdThatGoesSilentIsNoticedAndTheWatchIsMadeAgain() async throws {
        try await EtcdCluster.with { cluster in
            try await TCPProxy.with(upstreamPort: cluster.members[0].clientPort) { proxy in
                try await TestDaemon.onEtcd(cluster, endpoints: [proxy.url], watchSilenceLimit: .milliseconds(500)) {
                    daemon in
                    let before = try await daemon.publishAndWait(TestDaemon.exampleFiles())
                    // A quiet watch on a reachable etcd is made again every half second, and the
                    // daemon stays ready all along.
                    for _ in 0..<20 {
                        #expect(try await daemon.http.get("/readyz").status == 200)
                        try await Task.sleep(for: .milliseconds(100))
                    }

                    proxy.set(.silent)
                    let silenced = ContinuousClock.now
                    #expect(try await TestDaemon.eventually { try await daemon.http.get("/readyz").status == 503 })
                    let noticed = ContinuousClock.now - silenced
                    #expect(noticed < .seconds(3), "a silent etcd was noticed after \(noticed)")
                    let status = try await daemon.http.get("/v1/status").json()
                    #expect(status["staleSince"] is String)
                    #expect(try await daemon.http.get("/healthz").status == 200)
                    #expect(try await daemon.bundleETag() == before)

                    try await cluster.etcdctl(["put", "/livery/specs/extra.yaml", "specs:\n  extra: []\n"])
                    proxy.set(.forward)
                    #expect(
                        try await TestDaemon.eventually(timeout: .seconds(10)) {
                            try await daemon.http.get("/readyz").status == 200
                        })
                    #expect(try await TestDaemon.eventually { try await daemon.bundleETag() != before })
                    #expect(try await daemon.http.get("/v1/specs/extra.yaml").status == 200)
                    #expect(try await daemon.http.get("/v1/status").json()["staleSince"] == nil)
                }
            }
        }
    }

    @Test func aSilentMemberAmongThreeIsLeftForTheOthersAndNotWaitedForAgain() async throws {
        try await EtcdCluster.with(members: 3) { cluster in
            try await cluster.etcdctl(["put", "/livery/specs/card.yaml", "specs:\n  card: []\n"])
            try await TCPProxy.with(upstreamPort: cluster.members[0].clientPort) { proxy in
                let endpoints = [proxy.url] + cluster.endpoints.dropFirst()
                try await TestDaemon.onEtcd(cluster, endpoints: endpoints, watchSilenceLimit: .milliseconds(500)) {
                    daemon in
                    #expect(try await TestDaemon.eventually { try await daemon.bundleETag() != nil })
                    let before = try await daemon.bundleETag()
                    proxy.set(.silent)
                    // The watch moves to another member; the daemon never reports itself stale.
                    for _ in 0..<15 {
                        #expect(try await daemon.http.get("/readyz").status == 200)
                        try await Task.sleep(for: .milliseconds(100))
                    }
                    let connections = proxy.accepted
                    try await cluster.etcdctl(["put", "/livery/specs/extra.yaml", "specs:\n  extra: []\n"])
                    #expect(
                        try await TestDaemon.eventually(timeout: .seconds(2)) {
                            try await daemon.bundleETag() != before
                        })
                    // Four silence limits of a quiet watch later, no new watch went to the silent member.
                    for _ in 0..<20 {
                        #expect(try await daemon.http.get("/readyz").status == 200)
                        try await Task.sleep(for: .milliseconds(100))
                    }
                    #expect(proxy.accepted == connections)
                }
            }
        }
    }

    @Test func progressNotificationsKeepAQuietWatchFromBeingMadeAgain() async throws {
        try await EtcdCluster.with(options: ["--experimental-watch-progress-notify-interval", "200ms"]) { cluster in
            try await TCPProxy.with(upstreamPort: cluster.members[0].clientPort) { proxy in
                try await TestDaemon.onEtcd(cluster, endpoints: [proxy.url], watchSilenceLimit: .milliseconds(500)) {
                    daemon in
                    let before = try await daemon.publishAndWait(TestDaemon.exampleFiles())
                    let connections = proxy.accepted
                    // Four silence limits of quiet: the notifications alone keep the watch alive.
                    for _ in 0..<20 {
                        #expect(try await daemon.http.get("/readyz").status == 200)
                        try await Task.sleep(for: .milliseconds(100))
                    }
                    #expect(proxy.accepted == connections)
                    try await cluster.etcdctl(["put", "/livery/specs/extra.yaml", "specs:\n  extra: []\n"])
                    #expect(try await TestDaemon.eventually { try await daemon.bundleETag() != before })
                }
            }
        }
    }
}
