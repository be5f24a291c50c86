import Foundation
import LiveryServer
import LiveryTestSupport
import LiveryTesting
import Testing

/// Where the specs live (the folder's absolute path, etcd's endpoints) is told only to a request
/// with the push token; other readers get paths relative to the folder.
@Suite(.timeLimit(.minutes(1))) struct PlaceDisclosureTests {
    @Test func theStatusNamesTheFolderOnlyToTheTokensBearer() async throws {
        try await TestDaemon.with { server in
            let folder = server.folder.url.path
            let anonymous = HTTP(base: server.base, token: "")
            let reader = try await anonymous.get("/v1/status")
            #expect(reader.status == 200)
            #expect(try reader.json()["directory"] == nil)
            #expect(!reader.text.contains(folder), "\(reader.text)")
            let owner = try await server.http.get(
                "/v1/status", headers: [("Authorization", "Bearer \(TestDaemon.token)")])
            #expect(owner.text.contains(folder), "\(owner.text)")
        }
    }

    @Test func anIOErrorNamesPlacesRelativeToTheFolder() async throws {
        try await TestDaemon.with { server in
            let folder = server.folder.url.path
            try FileManager.default.removeItem(at: server.folder.url)
            let anonymous = HTTP(base: server.base, token: "")
            let listing = try await anonymous.get("/v1/specs")
            #expect(listing.status == 500)
            #expect(!listing.text.contains(folder), "\(listing.text)")
            #expect(listing.text.contains("specs folder '.'"), "\(listing.text)")
            let file = try await anonymous.get("/v1/specs/card.yaml")
            #expect(!file.text.contains(folder), "\(file.text)")
            let owner = try await server.http.get(
                "/v1/specs", headers: [("Authorization", "Bearer \(TestDaemon.token)")])
            #expect(owner.text.contains(folder), "the token's bearer reads the whole path: \(owner.text)")
        }
    }

    /// Before the first bundle every read of it is a 503 naming what keeps the specs from
    /// loading, here the folder itself (`serve --wait-for-folder` on a folder not made yet):
    /// on each path that answers it, the folder is `.` but to the token's bearer.
    @Test func theNoBundleAnswerNamesTheFolderOnlyToTheTokensBearer() async throws {
        let secrets = try TemporarySpecFolder(prefix: "livery-places")
        try secrets.write("token", TestDaemon.token + "\n")
        let folder = secrets.url("not-yet").path
        let child = try await Subprocess([
            "serve", folder, "--wait-for-folder", "--port", "0", "--token-file", secrets.url("token").path,
        ])
        defer { child.process.terminate() }
        let listening = try await TestDaemon.eventually(timeout: .seconds(20)) { child.stdout.contains("on http://") }
        let port = try #require(child.stdout.firstMatch(of: /on http:\/\/127\.0\.0\.1:(\d+)/).flatMap { Int($0.1) })
        #expect(listening)
        let anonymous = HTTP(base: "http://127.0.0.1:\(port)", token: "")
        // The raw path hands a request it cannot answer to the event-loop one; `wait=0s` and the
        // version signal go there directly; the rest through the router.
        for path in ["/v1/spec", "/v1/spec?wait=0s", "/v1/css", "/v1/version", "/readyz", "/v1/resolved", "/v1/tokens"]
        {
            let answer = try await anonymous.get(path)
            #expect(answer.status == 503, "\(path): \(answer.text)")
            #expect(!answer.text.contains(folder), "\(path): \(answer.text)")
            #expect(answer.text.contains(#""file":".""#), "\(path): \(answer.text)")
            let owner = try await anonymous.get(path, headers: [("Authorization", "Bearer \(TestDaemon.token)")])
            #expect(owner.text.contains(folder), "the token's bearer reads the whole path of \(path): \(owner.text)")
        }
    }

    @Test func theStatusNamesEtcdsEndpointsOnlyToTheTokensBearer() async throws {
        try await EtcdCluster.with { cluster in
            try await TestDaemon.onEtcd(cluster) { server in
                let endpoint = cluster.members[0].clientURL
                let reader = try await HTTP(base: server.base, token: "").get("/v1/status")
                #expect(reader.status == 200)
                #expect(!reader.text.contains(endpoint), "\(reader.text)")
                #expect(try reader.json()["store"] as? String == "etcd")
                let owner = try await server.http.get(
                    "/v1/status", headers: [("Authorization", "Bearer \(TestDaemon.token)")])
                #expect(owner.text.contains(endpoint), "\(owner.text)")
            }
        }
    }
}
