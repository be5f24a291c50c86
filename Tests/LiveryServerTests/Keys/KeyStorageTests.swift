import Foundation
import LiveryServer
import LiveryTestSupport
import LiveryTesting
import Testing

/// Where keys live and what is shown of them: a 0600 file in the state folder that holds only
/// their hashes, a listing without them, and on etcd one set every daemon follows.
@Suite(.timeLimit(.minutes(3))) struct KeyStorageTests {
    @Test func theKeyFileIsPrivateAndHoldsOnlyHashes() async throws {
        let state = try TemporarySpecFolder(prefix: "livery-keys-state")
        let specs = try TemporarySpecFolder(prefix: "livery-keys-specs")
        try TestDaemon.writeExample(to: specs)
        try await TestDaemon.with(folder: specs, configure: { $0.stateDirectory = state.url }) { server in
            let key = try await server.addKey("ci", scopes: ["push", "rollout"], environments: ["default"])
            #expect(key.wholeMatch(of: /lvr_[A-Za-z0-9_-]{43}/) != nil, "\(key)")
            let files = try FileManager.default.contentsOfDirectory(atPath: state.url.path).filter {
                $0.hasPrefix("keys-")
            }
            let file = state.url.appending(path: try #require(files.first))
            let mode = try #require(
                try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int)
            #expect(mode == 0o600)
            let text = try String(contentsOf: file, encoding: .utf8)
            #expect(!text.contains(key) && text.contains(AccessKey.digest(of: key.utf8)))
            #expect(
                try FileManager.default.contentsOfDirectory(atPath: server.folder.url.path).sorted() == [
                    "card.yaml", "palette.yaml",
                ])

            // The key works, and its use is listed; the listing never holds a key or a hash.
            let pushed = try await server.http.put("/v1/specs/extra.yaml", "specs: {}\n", token: .some(key))
            #expect(pushed.status == 201, "\(pushed.text)")
            let listing = try await server.http.get(
                "/v1/keys", headers: [("Authorization", "Bearer \(TestDaemon.token)")])
            #expect(listing.status == 200)
            #expect(!listing.text.contains(key) && !listing.text.contains(AccessKey.digest(of: key.utf8)))
            let keys = try #require(try listing.json()["keys"] as? [[String: Any]])
            let ci = try #require(keys.first { $0["name"] as? String == "ci" })
            #expect(ci["scopes"] as? [String] == ["push", "rollout"] && ci["environments"] as? [String] == ["default"])
            #expect(ci["created"] is String && ci["lastUsed"] is String, "\(ci)")
            #expect(keys.contains { $0["name"] as? String == "token-file" })
            let me = try await server.http.get("/v1/keys/self", headers: [("Authorization", "Bearer \(key)")]).json()
            #expect(me["name"] as? String == "ci" && me["scopes"] as? [String] == ["push", "rollout"])

            // Revoked, it opens nothing; the name cannot be taken twice, nor the token file's.
            #expect(try await server.http.delete("/v1/keys/ci").status == 204)
            #expect(try await server.http.put("/v1/specs/extra.yaml", "specs: {}\n", token: .some(key)).status == 401)
            #expect(try await server.http.delete("/v1/keys/ci").status == 404)
            _ = try await server.addKey("ci", scopes: ["read"], environments: ["*"])
            let twice = try await server.http.post(
                "/v1/keys", json: #"{"name": "ci", "scopes": ["read"], "environments": ["*"]}"#)
            #expect(twice.status == 409, "\(twice.text)")
            let fixed = try await server.http.post(
                "/v1/keys", json: #"{"name": "token-file", "scopes": ["read"], "environments": ["*"]}"#)
            #expect(fixed.status == 409, "\(fixed.text)")
            #expect(try await server.http.delete("/v1/keys/read-token-file").status == 409)
            // `self` is the calling key's own path, never a key's name.
            let reserved = try await server.http.post(
                "/v1/keys", json: #"{"name": "self", "scopes": ["read"], "environments": ["*"]}"#)
            #expect(reserved.status == 400, "\(reserved.text)")
            #expect(try JSONDecoder().decode(Problem.self, from: reserved.body).kind == .reservedKeyName)
            #expect(try await server.http.delete("/v1/keys/self").status == 405)
        }
        // A new daemon of the same folder and state folder knows the key.
        try await TestDaemon.with(folder: specs, configure: { $0.stateDirectory = state.url }) { server in
            let listing =
                try await server.http.get("/v1/keys", headers: [("Authorization", "Bearer \(TestDaemon.token)")])
                .json()[
                    "keys"] as? [[String: Any]] ?? []
            #expect(listing.contains { $0["name"] as? String == "ci" })
        }
    }

    @Test(.heavy) func aKeyRevokedOnOneEtcdDaemonIsRefusedByAnotherWithinOneSecond() async throws {
        try await EtcdCluster.with { cluster in
            try await TestDaemon.onEtcd(cluster) { a in
                try await TestDaemon.onEtcd(cluster) { b in
                    _ = try await a.publishAndWait(TestDaemon.exampleFiles())
                    let key = try await a.addKey("designer", scopes: ["push"], environments: ["default"])
                    #expect(
                        try await TestDaemon.eventually(timeout: .seconds(1)) {
                            try await b.http.get("/v1/keys/self", headers: [("Authorization", "Bearer \(key)")]).status
                                == 200
                        })
                    let designer = HTTP(base: b.base, token: key)
                    let pushed = try await designer.publish(
                        TestDaemon.exampleFiles(accent: "#FF9500"), message: "orange")
                    #expect(pushed.status == 200, "\(pushed.text)")
                    let history = try await a.http.get("/v1/history").json()["entries"] as? [[String: Any]] ?? []
                    #expect(history.first?["by"] as? String == "designer", "\(history)")
                    #expect(history.dropFirst().first?["by"] as? String == "token-file", "\(history)")

                    #expect(try await a.http.delete("/v1/keys/designer").status == 204)
                    let revoked = ContinuousClock.now
                    #expect(
                        try await TestDaemon.eventually(timeout: .seconds(1)) {
                            try await b.http.get("/v1/keys/self", headers: [("Authorization", "Bearer \(key)")]).status
                                == 401
                        })
                    let refusedAfter = ContinuousClock.now - revoked
                    #expect(refusedAfter < .seconds(1))
                    let late = try await designer.publish(TestDaemon.exampleFiles())
                    #expect(late.status == 401, "\(late.text)")
                }
            }
        }
    }
}
