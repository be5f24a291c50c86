import Foundation
import LiveryServer
import LiveryTesting
import Testing

/// `GET /v1/events`: Server-Sent Events with the current bundle, one event per new bundle,
/// heartbeats, and resumption with `Last-Event-ID`.
@Suite(.timeLimit(.minutes(1))) struct EventStreamTests {
    @Test func sendsTheCurrentBundleThenEachPush() async throws {
        try await TestDaemon.with { server in
            let current = try await server.http.get("/v1/spec")
            let stream = try await EventStreamClient.connect(server.base + "/v1/events")
            defer { stream.close() }
            #expect(stream.status == 200)
            #expect(stream.contentType == "text/event-stream")
            #expect(try await TestDaemon.eventually { stream.events.count == 1 })
            #expect(stream.messages.first == .retry(1500))
            #expect(stream.events.first?.id == current.header("ETag"))
            #expect(stream.events.first?.data == current.text)

            let push = try await server.http.put(
                "/v1/specs/palette.yaml", "variables: { colors: { accent: \"#123456\" } }\n")
            #expect(push.status == 200)
            #expect(try await TestDaemon.eventually { stream.events.count == 2 })
            let now = try await server.http.get("/v1/spec")
            #expect(stream.events.last?.id == now.header("ETag"))
            #expect(stream.events.last?.data == now.text)
            #expect(now.text.contains("#123456"))
        }
    }

    @Test func resumingWithTheCurrentIDSendsNothingButHeartbeats() async throws {
        try await TestDaemon.with(heartbeat: .milliseconds(150)) { server in
            let etag = try #require(try await server.http.get("/v1/spec").header("ETag"))
            let stream = try await EventStreamClient.connect(server.base + "/v1/events", lastEventID: etag)
            defer { stream.close() }
            #expect(try await TestDaemon.eventually { stream.messages.contains(.comment("heartbeat")) })
            #expect(stream.events.isEmpty, "the client already has this bundle")

            try server.folder.atomicSave("palette.yaml", "variables:\n  colors:\n    accent: \"#ABCDEF\"\n")
            #expect(try await TestDaemon.eventually { stream.events.count == 1 })
            #expect(stream.events.first?.id != etag)
        }
    }

    @Test func resumingWithAStaleIDSendsTheCurrentBundleAtOnce() async throws {
        try await TestDaemon.with { server in
            let current = try await server.http.get("/v1/spec")
            let stream = try await EventStreamClient.connect(
                server.base + "/v1/events", lastEventID: #""0123456789abcdef""#)
            defer { stream.close() }
            #expect(try await TestDaemon.eventually { stream.events.count == 1 })
            #expect(stream.events.first?.id == current.header("ETag"))
        }
    }

    @Test func aStreamEndsWhenTheDaemonShutsDown() async throws {
        var stream: EventStreamClient?
        try await TestDaemon.with { server in
            let client = try await EventStreamClient.connect(server.base + "/v1/events")
            #expect(try await TestDaemon.eventually { client.events.count == 1 })
            stream = client
        }
        let client = try #require(stream)
        #expect(try await TestDaemon.eventually(timeout: .seconds(2)) { client.isFinished })
    }
}
