import Foundation
import Livery
import LiveryServer
import LiveryTesting
import Testing

/// `GET /v1/spec?wait=`: held while the client has the current bundle; every waiting client
/// wakes on a new one, whether it came from an edit on disk or a push.
@Suite(.timeLimit(.minutes(1))) struct LongPollTests {
    /// Starts `count` long-polls for the current bundle and waits until the daemon holds them all.
    private func waiters(
        _ count: Int, on server: TestDaemon, wait: String = "20s"
    ) async throws
        -> (etag: String, tasks: [Task<HTTP.Reply, any Error>])
    {
        let etag = try #require(try await server.http.get("/v1/spec").header("ETag"))
        let http = server.http
        let tasks = (0..<count).map { _ in
            Task {
                try await http.get("/v1/spec?wait=\(wait)", headers: [("If-None-Match", etag)], timeout: .seconds(30))
            }
        }
        let held = try await TestDaemon.eventually { server.daemon.hub.waitingClients == count }
        #expect(held, "the daemon holds all \(count) long-polls")
        return (etag, tasks)
    }

    @Test func everyWaitingClientWakesOnAnEditOnDisk() async throws {
        try await TestDaemon.with { server in
            let (etag, tasks) = try await waiters(3, on: server)
            let start = ContinuousClock.now
            try server.folder.atomicSave("palette.yaml", "variables:\n  colors:\n    accent: \"#FF0000\"\n")
            for task in tasks {
                let reply = try await task.value
                #expect(reply.status == 200)
                #expect(reply.header("ETag") != etag)
                #expect(reply.text.contains("#FF0000"))
            }
            #expect(ContinuousClock.now - start < .seconds(3))
            #expect(server.daemon.hub.waitingClients == 0)
        }
    }

    @Test func everyWaitingClientWakesOnAPush() async throws {
        try await TestDaemon.with { server in
            let (etag, tasks) = try await waiters(2, on: server, wait: "30")
            let push = try await server.http.put(
                "/v1/specs/palette.yaml", "variables: { colors: { accent: \"#00FF00\" } }\n")
            #expect(push.status == 200)
            for task in tasks {
                let reply = try await task.value
                #expect(reply.status == 200)
                #expect(reply.header("ETag") != etag)
                #expect(reply.text.contains("#00FF00"))
            }
        }
    }

    @Test func aWaitThatRunsOutAnswers304() async throws {
        try await TestDaemon.with { server in
            let etag = try #require(try await server.http.get("/v1/spec").header("ETag"))
            let start = ContinuousClock.now
            let reply = try await server.http.get("/v1/spec?wait=400ms", headers: [("If-None-Match", etag)])
            let elapsed = ContinuousClock.now - start
            #expect(reply.status == 304)
            #expect(reply.header("ETag") == etag)
            #expect(elapsed >= .milliseconds(350), "held for the wait, less at most 10 % jitter")
            #expect(elapsed < .seconds(2))
        }
    }

    @Test func aClientWithoutTheCurrentBundleIsAnsweredAtOnce() async throws {
        try await TestDaemon.with { server in
            let start = ContinuousClock.now
            let reply = try await server.http.get(
                "/v1/spec?wait=20s", headers: [("If-None-Match", #""0000000000000000""#)])
            #expect(reply.status == 200)
            #expect(ContinuousClock.now - start < .seconds(2))
        }
    }
}
