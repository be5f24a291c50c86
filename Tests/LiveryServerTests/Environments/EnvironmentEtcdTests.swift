import Foundation
import LiveryEtcd
import LiveryServer
import Testing

/// Environments on etcd: created and deleted by one daemon, seen by every daemon on the prefix;
/// each environment's keys under `PREFIX/environments/NAME/`, apart from the default one's.
@Suite(.timeLimit(.minutes(2))) struct EnvironmentEtcdTests {
    /// The keys under `prefix`, sorted.
    static func keys(_ cluster: EtcdCluster, _ prefix: String) async throws -> [String] {
        try await cluster.client().range(key: prefix, rangeEnd: EtcdClient.prefixEnd(prefix), keysOnly: true).0
            .map(\.key).sorted()
    }

    @Test func twoDaemonsSeeAnEnvironmentCreatedAndDeletedAndItsPushesStayInIt() async throws {
        try await EtcdCluster.with { cluster in
            try await TestDaemon.onEtcd(cluster) { a in
                try await TestDaemon.onEtcd(cluster) { b in
                    let production = try await a.publishAndWait(TestDaemon.exampleFiles())
                    #expect(try await b.serves(production))

                    let created = try await a.http.post(
                        "/v1/environments", json: #"{"name": "staging", "from": "default"}"#)
                    #expect(created.status == 201, "\(created.text)")
                    // b hears of it through the prefix and serves the copy of the default files.
                    #expect(
                        try await TestDaemon.eventually {
                            try await b.http.get("/v1/environments/staging/spec").header("ETag") == production
                        })
                    let listed = try await b.http.get("/v1/environments").json()["environments"] as? [[String: Any]]
                    #expect(listed?.compactMap { $0["name"] as? String } == ["default", "staging"])

                    // A follower of the default environment on b waits while a pushes to staging:
                    // its bundle never changes.
                    async let waited = b.http.get("/v1/spec?wait=2s", headers: [("If-None-Match", production)])
                    let pushed = try await a.http.post(
                        "/v1/environments/staging/specs",
                        json: ##"{"files": {"palette.yaml": "variables:\n  colors:\n    accent: \"#30D158\"\n"}}"##)
                    #expect(pushed.status == 200, "\(pushed.text)")
                    let stagingTag = try #require(try pushed.json()["etag"] as? String)
                    #expect(
                        try await TestDaemon.eventually {
                            try await b.http.get("/v1/environments/staging/spec").header("ETag") == stagingTag
                        })
                    #expect(try await waited.status == 304)
                    #expect(try await a.bundleETag() != stagingTag)
                    #expect(try await b.bundleETag() == a.bundleETag())
                    #expect(
                        try await Self.keys(cluster, "/livery/environments/staging/specs/") == [
                            "/livery/environments/staging/specs/card.yaml",
                            "/livery/environments/staging/specs/palette.yaml",
                        ])

                    #expect(try await b.http.delete("/v1/environments/staging").status == 204)
                    #expect(
                        try await TestDaemon.eventually {
                            try await a.http.get("/v1/environments/staging/spec").status == 404
                        })
                    #expect(try await Self.keys(cluster, "/livery/environments/staging/").isEmpty)
                    #expect(try await Self.keys(cluster, "/livery/environment-names/").isEmpty)
                    #expect(try await a.http.delete("/v1/environments/default").status == 409)
                }
            }
        }
    }
}
