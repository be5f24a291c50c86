import Foundation
import LiveryEtcd
import LiveryServer
import LiveryTesting
import Testing

/// Daemons on a real etcd (one member): the same bundle as a folder, atomic publishes, races
/// between daemons, history, and values put by hand.
@Suite(.timeLimit(.minutes(2))) struct EtcdStoreTests {
    @Test func twoDaemonsOnOnePrefixServeTheETagAFolderDaemonServes() async throws {
        try await EtcdCluster.with { cluster in
            try await TestDaemon.onEtcd(cluster) { a in
                try await TestDaemon.onEtcd(cluster) { b in
                    let published = try await a.http.publish(TestDaemon.exampleFiles(), message: "first")
                    #expect(published.status == 200, "\(published.text)")
                    let folderETag = try await TestDaemon.with { folder in try await folder.bundleETag() }
                    #expect(folderETag != nil)
                    #expect(try await a.serves(folderETag))
                    #expect(try await b.serves(folderETag))
                    let a1 = try await a.http.get("/v1/spec")
                    let b1 = try await b.http.get("/v1/spec")
                    #expect(a1.body == b1.body)

                    let put = try await b.http.put(
                        "/v1/specs/palette.yaml", "variables:\n  colors:\n    accent: \"#FF0000\"\n")
                    #expect(put.status == 200, "\(put.text)")
                    #expect(try await TestDaemon.eventually { try await b.bundleETag() != folderETag })
                    #expect(try await a.serves(try await b.bundleETag()))
                }
            }
        }
    }

    @Test func ifMatchRacesAcrossTwoDaemonsHaveExactlyOneWinner() async throws {
        try await EtcdCluster.with { cluster in
            try await TestDaemon.onEtcd(cluster) { a in
                try await TestDaemon.onEtcd(cluster) { b in
                    let etag = try await a.publishAndWait(TestDaemon.exampleFiles())
                    #expect(try await b.serves(etag))
                    var current = etag
                    for round in 0..<5 {
                        let ifMatch = current
                        async let fromA = a.http.publish(
                            ["palette.yaml": "variables:\n  colors:\n    accent: \"#A0000\(round)\"\n"],
                            headers: [("If-Match", ifMatch)])
                        async let fromB = b.http.publish(
                            ["palette.yaml": "variables:\n  colors:\n    accent: \"#B0000\(round)\"\n"],
                            headers: [("If-Match", ifMatch)])
                        let statuses = [try await fromA.status, try await fromB.status].sorted()
                        #expect(statuses == [200, 412], "round \(round)")
                        let previous = current
                        let agreed = try await TestDaemon.eventually {
                            let fromA = try await a.bundleETag()
                            let fromB = try await b.bundleETag()
                            return fromA != previous && fromA == fromB
                        }
                        #expect(agreed, "round \(round)")
                        current = try await a.bundleETag() ?? ""
                    }
                }
            }
        }
    }

    @Test func aRaceWithoutIfMatchRevalidatesAndLosesNothing() async throws {
        try await EtcdCluster.with { cluster in
            try await TestDaemon.onEtcd(cluster) { a in
                try await TestDaemon.onEtcd(cluster) { b in
                    try await a.publishAndWait(TestDaemon.exampleFiles())
                    // Twenty new files, half through each daemon, all at once: every one lands.
                    try await withThrowingTaskGroup(of: Int.self) { group in
                        for index in 0..<20 {
                            let daemon = index % 2 == 0 ? a : b
                            group.addTask {
                                try await daemon.http.put(
                                    "/v1/specs/extra\(index).yaml", "specs:\n  extra\(index): []\n"
                                ).status
                            }
                        }
                        for try await status in group { #expect(status == 201) }
                    }
                    let list = try await b.http.get("/v1/specs").json()["files"] as? [[String: Any]]
                    #expect(list?.count == 22)
                }
            }
        }
    }

    @Test func aMultiFilePublishMovesAnIdentifierBetweenFiles() async throws {
        try await EtcdCluster.with { cluster in
            try await TestDaemon.onEtcd(cluster) { daemon in
                #expect(
                    try await daemon.http.publish([
                        "a.yaml": "specs:\n  card: []\n  title: []\n", "b.yaml": "specs:\n  other: []\n",
                    ]).status == 200)
                // One file at a time cannot do it: the identifier would be in both files.
                let alone = try await daemon.http.put("/v1/specs/b.yaml", "specs:\n  other: []\n  title: []\n")
                #expect(alone.status == 422)
                let moved = try await daemon.http.publish(
                    ["a.yaml": "specs:\n  card: []\n", "b.yaml": "specs:\n  other: []\n  title: []\n"],
                    message: "move title")
                #expect(moved.status == 200, "\(moved.text)")
                let etag = try #require(try moved.json()["etag"] as? String)
                #expect(try await daemon.serves(etag))
                #expect(try await daemon.http.get("/v1/specs/b.yaml").text.contains("title"))
            }
        }
    }

    @Test func historyListsPublishesAndRestoreBringsAStateBack() async throws {
        try await EtcdCluster.with { cluster in
            try await TestDaemon.onEtcd(cluster) { daemon in
                let first = try await daemon.http.publish(TestDaemon.exampleFiles(), message: "blue")
                let firstETag = try #require(try first.json()["etag"] as? String)
                let firstRevision = try #require(try first.json()["revision"] as? Int)
                let second = try await daemon.http.publish(TestDaemon.exampleFiles(accent: "#FF0000"), message: "red")
                #expect(second.status == 200)
                let history = try await daemon.http.get("/v1/history").json()["entries"] as? [[String: Any]]
                #expect(history?.map { $0["message"] as? String } == ["red", "blue"])
                #expect(history?.last?["revision"] as? Int == firstRevision)
                #expect(
                    history?.first?["paths"] as? [String] == ["palette.yaml"]
                        || history?.first?["paths"] as? [String] == ["card.yaml", "palette.yaml"])

                let then = try await daemon.http.get("/v1/history/\(firstRevision)")
                #expect(then.status == 200)
                #expect(then.header("ETag") == firstETag)

                let restored = try await daemon.http.post("/v1/history/\(firstRevision)/restore", json: "")
                #expect(restored.status == 200, "\(restored.text)")
                #expect(try restored.json()["etag"] as? String == firstETag)
                #expect(try await daemon.serves(firstETag))
                let newest = try await daemon.http.get("/v1/history?limit=1").json()["entries"] as? [[String: Any]]
                #expect(newest?.first?["message"] as? String == "restore revision \(firstRevision)")

                let unauthorized = try await daemon.http.post(
                    "/v1/history/\(firstRevision)/restore", json: "", token: .some(nil))
                #expect(unauthorized.status == 401)
                #expect(try await daemon.http.get("/v1/history/999999").status == 404)
            }
        }
    }

    @Test func theHistoryKeepsTheNewestPublishesUpToItsLimit() async throws {
        try await EtcdCluster.with { cluster in
            try await TestDaemon.onEtcd(cluster, historyLimit: 3) { daemon in
                for index in 1...5 {
                    let reply = try await daemon.http.publish(
                        ["n.yaml": "specs:\n  n\(index): []\n"], message: "m\(index)")
                    #expect(reply.status == 200, "\(reply.text)")
                }
                #expect(try await historyMessages(daemon) == ["m5", "m4", "m3"])
                let keys = try await cluster.etcdctl(["get", "--prefix", "--keys-only", "/livery/history/"])
                #expect(keys.split(separator: "\n").count == 3, "\(keys)")
            }
            // A daemon with a lower limit removes the surplus with its first publish.
            let messages = try await TestDaemon.onEtcd(cluster, historyLimit: 1) { daemon in
                let reply = try await daemon.http.publish(["n.yaml": "specs:\n  n6: []\n"], message: "m6")
                #expect(reply.status == 200, "\(reply.text)")
                return try await historyMessages(daemon)
            }
            #expect(messages == ["m6"])
        }
    }

    private func historyMessages(_ daemon: TestDaemon) async throws -> [String?]? {
        let entries = try await daemon.http.get("/v1/history").json()["entries"] as? [[String: Any]]
        return entries?.map { $0["message"] as? String }
    }

    @Test func aBadValuePutWithEtcdctlIsALocatedErrorAndTheLastGoodBundleStays() async throws {
        try await EtcdCluster.with { cluster in
            try await TestDaemon.onEtcd(cluster) { daemon in
                let good = try await daemon.publishAndWait(TestDaemon.exampleFiles())
                try await cluster.etcdctl([
                    "put", "/livery/specs/card.yaml", "specs:\n  card:\n    - { type: Blink }\n",
                ])
                let reported = try await TestDaemon.eventually {
                    let status = try await daemon.http.get("/v1/status").json()
                    return (status["lastError"] as? [String: Any])?["file"] as? String == "card.yaml"
                }
                #expect(reported)
                let error = try await daemon.http.get("/v1/status").json()["lastError"] as? [String: Any]
                #expect(error?["line"] as? Int == 3)
                // The same place and message as the same file in a folder.
                let folder = try TemporarySpecFolder(prefix: "livery-etcd-bad")
                try folder.write("card.yaml", "specs:\n  card:\n    - { type: Blink }\n")
                let fromFolder = try await TestDaemon.with(folder: folder) { folderDaemon in
                    try await folderDaemon.http.get("/v1/status").json()["lastError"] as? [String: Any]
                }
                #expect(error?["column"] as? Int == fromFolder?["column"] as? Int)
                #expect(error?["message"] as? String == fromFolder?["message"] as? String)
                #expect(try await daemon.bundleETag() == good)
            }
        }
    }

    @Test func compactionAnswers410ForOldRevisionsAndTheWatchReadsAgain() async throws {
        try await EtcdCluster.with { cluster in
            try await TestDaemon.onEtcd(cluster) { daemon in
                let first = try await daemon.http.publish(TestDaemon.exampleFiles(), message: "one")
                let firstRevision = try #require(try first.json()["revision"] as? Int)
                let second = try await daemon.http.publish(TestDaemon.exampleFiles(accent: "#00FF00"), message: "two")
                let secondRevision = try #require(try second.json()["revision"] as? Int)
                try await cluster.etcdctl(["compact", String(secondRevision)])
                let gone = try await daemon.http.get("/v1/history/\(firstRevision)")
                #expect(gone.status == 410)
                #expect(try gone.json()["type"] as? String == "urn:livery:problem:revision-compacted")
                #expect(try await daemon.http.get("/v1/history/\(secondRevision)").status == 200)

                // A watch that starts before the compacted revision is cancelled and says where to read.
                let compacted = try await firstMessage(cluster.client(), from: Int64(firstRevision))
                guard case .compacted(let at) = compacted else {
                    Issue.record("expected a compacted watch, got \(compacted)")
                    return
                }
                #expect(at == Int64(secondRevision))
            }
        }
    }

    @Test func dryRunValidatesAndWritesNothing() async throws {
        try await EtcdCluster.with { cluster in
            try await TestDaemon.onEtcd(cluster) { daemon in
                let before = try await daemon.publishAndWait(TestDaemon.exampleFiles())
                let dry = try await daemon.http.publish(["extra.yaml": "specs:\n  extra: []\n"], query: "?dryRun=true")
                #expect(dry.status == 200)
                #expect(try dry.json()["dryRun"] as? Bool == true)
                #expect(
                    try await daemon.http.put("/v1/specs/extra.yaml?dryRun=true", "specs:\n  extra: []\n").status == 201
                )
                #expect(try await daemon.http.delete("/v1/specs/card.yaml?dryRun=true").status == 204)
                #expect(try await daemon.http.delete("/v1/specs/palette.yaml?dryRun=true").status == 422)
                let invalid = try await daemon.http.publish(
                    ["card.yaml": "specs:\n  card:\n    - { type: Nope }\n"], query: "?dryRun=true")
                #expect(invalid.status == 422)
                #expect(invalid.header("Content-Type") == "application/problem+json")
                #expect(try await daemon.http.get("/v1/specs/extra.yaml").status == 404)
                #expect(try await daemon.bundleETag() == before)
                #expect((try await daemon.http.get("/v1/history").json()["entries"] as? [Any])?.count == 1)
            }
        }
    }

    private func firstMessage(_ client: EtcdClient, from revision: Int64) async throws -> EtcdClient.WatchMessage? {
        var first: EtcdClient.WatchMessage?
        _ = try await client.watch(
            key: "/livery/specs/", rangeEnd: EtcdClient.prefixEnd("/livery/specs/"), from: revision,
            silenceLimit: .seconds(10)
        ) { message in
            if case .created = message { return true }
            first = message
            return false
        }
        return first
    }
}
