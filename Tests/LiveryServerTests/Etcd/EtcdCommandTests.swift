import Foundation
import LiveryEtcd
import LiveryServer
import LiveryTestSupport
import LiveryTesting
import Testing

/// `livery serve --etcd`, `livery push` with several files, `livery history` and
/// `livery rollback`, as a user runs them.
@Suite(.timeLimit(.minutes(2))) struct EtcdCommandTests {
    @Test func serveOnEtcdPushHistoryAndRollback() async throws {
        try await EtcdCluster.with { cluster in
            let runtime = try TemporarySpecFolder(prefix: "livery-runtime")
            let tokenFile = runtime.url("token")
            try TestDaemon.token.write(to: tokenFile, atomically: true, encoding: .utf8)
            let serve = try await Subprocess([
                "serve", "--etcd", cluster.endpoints.map(\.absoluteString).joined(separator: ","), "--etcd-prefix",
                "/cli", "--history-limit", "2", "--etcd-watch-silence", "3",
                "--port", "0", "--token-file", tokenFile.path, "--log-level", "warning",
            ])
            defer { if serve.process.isRunning { serve.process.interrupt() } }
            let listening = try await TestDaemon.eventually(timeout: .seconds(10)) {
                serve.stdout.contains("on http://")
            }
            try #require(listening, "serve did not start; stderr: \(serve.stderr)")
            #expect(
                serve.stdout.contains("livery: serving etcd \(cluster.members[0].clientURL) /cli/ on http://127.0.0.1:")
            )
            let base = try #require(serve.stdout.firstMatch(of: /on (http:\/\/127\.0\.0\.1:\d+)/)?.1).description

            let local = try TemporarySpecFolder(prefix: "livery-push")
            for (path, content) in TestDaemon.exampleFiles() { try local.write(path, content ?? "") }
            let files = [local.url("card.yaml").path, local.url("palette.yaml").path]
            let first = try await Subprocess.run(
                ["push"] + files + ["-m", "first", "--server", base, "--token-file", tokenFile.path])
            #expect(first.status == 0, "stderr: \(first.stderr)")
            let revision = try #require(
                first.stdout.firstMatch(of: /published card.yaml, palette.yaml at revision (\d+) \(bundle ETag/)?.1)
            try local.write("extra.yaml", "specs:\n  extra: []\n")
            let second = try await Subprocess.run([
                "push", local.url("extra.yaml").path, "--delete", "card.yaml", "-m", "second", "--server", base,
                "--token-file", tokenFile.path,
            ])
            #expect(second.status == 0, "stderr: \(second.stderr)")
            #expect(try await cluster.etcdctl(["get", "/cli/specs/card.yaml"]).isEmpty)

            let history = try await Subprocess.run(["history", "--server", base])
            #expect(history.status == 0, "stderr: \(history.stderr)")
            let lines = history.stdout.split(separator: "\n")
            #expect(lines.count == 2)
            #expect(lines.first?.hasSuffix("card.yaml, extra.yaml  second") == true, "\(history.stdout)")
            #expect(lines.last?.hasPrefix("\(revision)  ") == true, "\(history.stdout)")

            let rollback = try await Subprocess.run([
                "rollback", String(revision), "--server", base, "--token-file", tokenFile.path,
            ])
            #expect(rollback.status == 0, "stderr: \(rollback.stderr)")
            #expect(rollback.stdout.hasPrefix("restored revision \(revision) as revision "), "\(rollback.stdout)")
            #expect(
                try await cluster.etcdctl(["get", "/cli/specs/card.yaml", "--print-value-only"]).contains(
                    "BackgroundColor"))
            #expect(try await cluster.etcdctl(["get", "/cli/specs/extra.yaml"]).isEmpty)
            // Three publishes, --history-limit 2: the oldest record went with the rollback.
            let records = try await cluster.etcdctl(["get", "--prefix", "--keys-only", "/cli/history/"])
            #expect(records.split(separator: "\n").count == 2, "\(records)")
            serve.process.terminate()
            #expect(try await serve.exitStatus() == 0, "stderr: \(serve.stderr)")
        }
    }

    /// `--etcd-watch-silence` reaches the daemon: with 1 second, an etcd that stops answering
    /// (a proxy that stops forwarding without closing) turns `/readyz` to 503 within a few
    /// seconds, where the default limit (10 s) would not.
    @Test func theWatchSilenceFlagSetsHowSoonASilentEtcdIsNoticed() async throws {
        try await EtcdCluster.with { cluster in
            try await cluster.etcdctl(["put", "/livery/specs/card.yaml", "specs:\n  card: []\n"])
            try await TCPProxy.with(upstreamPort: cluster.members[0].clientPort) { proxy in
                let runtime = try TemporarySpecFolder(prefix: "livery-runtime")
                let tokenFile = runtime.url("token")
                try TestDaemon.token.write(to: tokenFile, atomically: true, encoding: .utf8)
                let serve = try await Subprocess([
                    "serve", "--etcd", proxy.url.absoluteString, "--etcd-watch-silence", "1", "--port", "0",
                    "--token-file",
                    tokenFile.path, "--log-level", "warning",
                ])
                defer { if serve.process.isRunning { serve.process.interrupt() } }
                let listening = try await TestDaemon.eventually(timeout: .seconds(10)) {
                    serve.stdout.contains("on http://")
                }
                try #require(listening, "serve did not start; stderr: \(serve.stderr)")
                let base = try #require(serve.stdout.firstMatch(of: /on (http:\/\/127\.0\.0\.1:\d+)/)?.1).description
                let http = HTTP(base: base, token: TestDaemon.token)
                #expect(try await TestDaemon.eventually { try await http.get("/readyz").status == 200 })

                proxy.set(.silent)
                let silenced = ContinuousClock.now
                #expect(
                    try await TestDaemon.eventually(timeout: .seconds(8)) {
                        try await http.get("/readyz", timeout: .seconds(2)).status == 503
                    })
                let noticed = ContinuousClock.now - silenced
                #expect(noticed < .seconds(5), "a silent etcd was noticed after \(noticed)")
                serve.process.terminate()
                #expect(try await serve.exitStatus() == 0, "stderr: \(serve.stderr)")
            }
        }
    }

    @Test(arguments: [
        (["--history-limit", "0"], "--history-limit 0 must be at least 1"),
        (["--etcd-watch-silence", "0"], "--etcd-watch-silence 0 must be at least 1 second"),
    ])
    func etcdLimitsBelowOneAreRefused(_ arguments: [String], message: String) async throws {
        let serve = try await Subprocess.run(["serve", "--etcd", "http://127.0.0.1:1"] + arguments)
        #expect(serve.status == 64, "stderr: \(serve.stderr)")
        #expect(serve.stderr.contains(message), "\(serve.stderr)")
    }

    @Test func historyOnAFolderDaemonListsItsRevisionsAndWhoMadeThem() async throws {
        try await TestDaemon.with { server in
            try await server.publishAndWait(["n.yaml": "specs:\n  n: []\n"], message: "added n")
            let history = try await Subprocess.run(["history", "--server", server.base])
            #expect(history.status == 0, "stderr: \(history.stderr)")
            let lines = history.stdout.split(separator: "\n").map { $0.split(separator: "  ").map(String.init) }
            #expect(
                lines.map { [$0[0]] + $0.dropFirst(2) } == [
                    ["2", "token-file", "n.yaml", "added n"],
                    ["1", "disk", "card.yaml, palette.yaml", "edited on disk"],
                ], "\(history.stdout)")
        }
    }

    @Test func theEtcdClientComparesRevisionsAsEtcdDoes() async throws {
        try await EtcdCluster.with { cluster in
            let client = cluster.client()
            let (created, first) = try await client.transaction(
                if: [.absent(key: "/k")], then: [.put(key: "/k", value: Data("1".utf8))])
            #expect(created)
            let (again, _) = try await client.transaction(
                if: [.absent(key: "/k")], then: [.put(key: "/k", value: Data("2".utf8))])
            #expect(!again, "the key exists now")
            let (stale, _) = try await client.transaction(
                if: [.modRevision(key: "/k", equals: first - 1)], then: [.delete(key: "/k")])
            #expect(!stale)
            let (kvs, revision) = try await client.range(key: "/", rangeEnd: EtcdClient.prefixEnd("/"))
            #expect(kvs.map(\.value) == [Data("1".utf8)])
            #expect(kvs.first?.modRevision == first && revision == first)
            let (unchanged, _) = try await client.transaction(
                if: [.unchangedSince(key: "/", rangeEnd: EtcdClient.prefixEnd("/"), revision: first - 1)], then: [])
            #expect(!unchanged, "/k changed at \(first)")
            let status = try await client.status()
            #expect(status.revision == first && status.hasLeader)
            #expect(EtcdClient.prefixEnd("/livery/") == "/livery0")
        }
    }
}
