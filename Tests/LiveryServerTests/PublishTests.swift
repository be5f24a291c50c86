import Foundation
import LiveryServer
import LiveryTesting
import Synchronization
import Testing

/// `POST /v1/specs` and the other second-stage write routes on a specs folder.
@Suite(.timeLimit(.minutes(1))) struct PublishTests {
    @Test func aPublishWritesEveryFileOrNone() async throws {
        try await TestDaemon.with { server in
            let before = try await server.bundleETag()
            let bad = try await server.http.publish(
                ["new.yaml": "specs:\n  new: []\n", "card.yaml": "specs:\n  card:\n    - { type: Nope }\n"])
            #expect(bad.status == 422)
            #expect(!FileManager.default.fileExists(atPath: server.folder.url("new.yaml").path))
            let good = try await server.http.publish([
                "new.yaml": "specs:\n  new: []\n", "palette.yaml": nil, "card.yaml": "specs:\n  card: []\n",
            ])
            #expect(good.status == 200, "\(good.text)")
            #expect(try good.json()["paths"] as? [String] == ["card.yaml", "new.yaml", "palette.yaml"])
            #expect(!FileManager.default.fileExists(atPath: server.folder.url("palette.yaml").path))
            let etag = try #require(try good.json()["etag"] as? String)
            #expect(etag != before)
            #expect(try await server.serves(etag))
        }
    }

    @Test func ifMatchOnThePublishIsTheBundleETag() async throws {
        try await TestDaemon.with { server in
            let current = try #require(try await server.bundleETag())
            let stale = try await server.http.publish(
                ["new.yaml": "specs:\n  new: []\n"], headers: [("If-Match", #""stale""#)])
            #expect(stale.status == 412)
            #expect(
                try stale.json()["detail"] as? String
                    == "If-Match does not match the bundle: the current bundle's ETag is \(current); fetch it again and retry"
            )
            let fresh = try await server.http.publish(
                ["new.yaml": "specs:\n  new: []\n"], headers: [("If-Match", current)])
            #expect(fresh.status == 200)
        }
    }

    @Test(arguments: [
        (#"{"files": {"a.yaml": 3}}"#, #"at files.a.yaml: Expected to decode String but found number instead."#),
        (#"{"files": {}}"#, #""files" names no file"#),
        (#"[]"#, "Expected to decode Dictionary<String, Any> but found an array instead."),
    ])
    func aBadBodyIs400SayingWhatWasExpected(body: String, detail: String) async throws {
        try await TestDaemon.with { server in
            let reply = try await server.http.post("/v1/specs", json: body)
            #expect(reply.status == 400)
            let text = try reply.json()["detail"] as? String ?? ""
            #expect(text.hasSuffix(detail), "\(text)")
        }
    }

    @Test func writesWithoutTheTokenAre401FromTheMiddleware() async throws {
        try await TestDaemon.with { server in
            let reply = try await server.http.post("/v1/specs", json: "{}", token: .some(nil))
            #expect(reply.status == 401)
            #expect(reply.header("WWW-Authenticate") == #"Bearer realm="livery""#)
            #expect(reply.header("Content-Type") == "application/problem+json")
        }
    }

    /// Every bundle a folder daemon publishes while batches rewrite two files has both files of
    /// one batch: `a` and `b` always carry the same number.
    @Test(.timeLimit(.minutes(1))) func theWatcherNeverPublishesAHalfWrittenBatch() async throws {
        try await TestDaemon.with { server in
            func files(_ n: Int) -> [String: String?] {
                [
                    "a.yaml": "specs:\n  a:\n    - { type: CornerRadius, radius: \(n) }\n",
                    "b.yaml": "specs:\n  b:\n    - { type: CornerRadius, radius: \(n) }\n",
                ]
            }
            #expect(try await server.http.publish(files(0)).status == 200)
            let bundles = Mutex<[String]>([])
            let watching = Task {
                var etag = try await server.bundleETag() ?? ""
                while !Task.isCancelled {
                    let reply = try await server.http.get("/v1/spec?wait=5s", headers: [("If-None-Match", etag)])
                    if reply.status == 200 {
                        bundles.withLock { $0.append(reply.text) }
                        etag = reply.header("ETag") ?? etag
                    }
                }
            }
            for n in 1...40 {
                #expect(try await server.http.publish(files(n)).status == 200)
            }
            try await Task.sleep(for: .milliseconds(500))
            watching.cancel()
            let seen = bundles.withLock { $0 }
            #expect(!seen.isEmpty)
            for bundle in seen {
                let object = try JSONSerialization.jsonObject(with: Data(bundle.utf8)) as? [String: Any]
                let specs = object?["specs"] as? [String: [[String: Any]]]
                #expect(specs?["a"]?.first?["radius"] as? Int == specs?["b"]?.first?["radius"] as? Int, "\(bundle)")
            }
        }
    }
}
