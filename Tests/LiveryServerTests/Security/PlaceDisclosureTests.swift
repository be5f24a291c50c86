import Foundation
import LiveryServer
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
