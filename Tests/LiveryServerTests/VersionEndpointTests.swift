import AsyncHTTPClient
import Foundation
import LiveryServer
import NIOHTTP1
import Testing

/// The cacheable protocol for fleets: `GET /v1/version?since=` names the current version,
/// `GET /v1/spec/{etag}` serves a kept version's bundle, immutable.
@Suite(.timeLimit(.minutes(1))) struct VersionEndpointTests {
    /// The current ETag, as a header shows it and without its quotes.
    private func currentTag(_ server: TestDaemon) async throws -> (header: String, bare: String) {
        let header = try #require(try await server.http.get("/v1/spec").header("ETag"))
        return (header, String(header.dropFirst().dropLast()))
    }

    private func push(_ accent: String, to server: TestDaemon) async throws {
        let reply = try await server.http.put(
            "/v1/specs/palette.yaml", "variables: { colors: { accent: \"\(accent)\" } }\n")
        #expect(reply.status == 200)
    }

    @Test func aKeptVersionIsServedImmutableEvenAfterItWasReplaced() async throws {
        try await TestDaemon.with { server in
            let old = try await currentTag(server)
            let oldBody = try await server.http.get("/v1/spec").body
            try await push("#123456", to: server)
            _ = try await TestDaemon.eventually { try await currentTag(server).header != old.header }
            let reply = try await server.http.get("/v1/spec/\(old.bare)")
            #expect(reply.status == 200)
            #expect(reply.body == oldBody)
            #expect(reply.header("ETag") == old.header)
            #expect(reply.header("Cache-Control") == "public, max-age=31536000, immutable")
            let head = try await server.http.send(.HEAD, "/v1/spec/\(old.bare)")
            #expect(head.status == 200)
            #expect(head.body.isEmpty)
            #expect(head.header("Cache-Control") == "public, max-age=31536000, immutable")
        }
    }

    @Test func aVersionNeverPublishedIs404AProblem() async throws {
        try await TestDaemon.with { server in
            let reply = try await server.http.get("/v1/spec/00000000deadbeef")
            #expect(reply.status == 404)
            #expect(reply.header("Content-Type") == "application/problem+json")
            #expect(try reply.json()["type"] as? String == "urn:livery:problem:version-not-kept")
        }
    }

    @Test func onlyTheLastSixteenVersionsAreKept() async throws {
        try await TestDaemon.with { server in
            var tags: [String] = [try await currentTag(server).bare]
            for index in 1...BundleHub.keptVersions {
                try await push(String(format: "#0000%02X", index), to: server)
                let previous = tags.last
                let changed = try await TestDaemon.eventually { try await currentTag(server).bare != previous }
                try #require(changed)
                tags.append(try await currentTag(server).bare)
            }
            #expect(try await server.http.get("/v1/spec/\(tags[0])").status == 404, "the 17th version back is gone")
            for tag in tags.dropFirst() {
                #expect(try await server.http.get("/v1/spec/\(tag)").status == 200)
            }
        }
    }

    @Test func theSignalAnswersAtOnceWhenTheVersionDiffers() async throws {
        try await TestDaemon.with { server in
            let current = try await currentTag(server)
            for since in ["", "?since=0000000000000000&wait=20s"] {
                let start = ContinuousClock.now
                let reply = try await server.http.get("/v1/version\(since)")
                #expect(ContinuousClock.now - start < .seconds(2))
                #expect(reply.status == 200)
                #expect(try reply.json()["etag"] as? String == current.header)
                #expect(reply.header("Cache-Control") == "public, max-age=1")
            }
        }
    }

    @Test func theSignalWaitsForAChangeThenNamesIt() async throws {
        try await TestDaemon.with { server in
            let old = try await currentTag(server)
            let http = server.http
            // A round whose instant is more than the wait away: the whole 20 s, unless a change.
            let round = Int64(Date().timeIntervalSince1970 / 20) + 2
            let waiting = Task {
                try await http.get("/v1/version?since=\(old.bare)&wait=20s&round=\(round)", timeout: .seconds(30))
            }
            let held = try await TestDaemon.eventually { server.daemon.hub.waitingClients == 1 }
            #expect(held, "the signal waits in the hub like a long-poll")
            try await push("#ABCDEF", to: server)
            let reply = try await waiting.value
            #expect(reply.status == 200)
            let named = try #require(try reply.json()["etag"] as? String)
            #expect(named != old.header)
            #expect(named == (try await currentTag(server)).header)
        }
    }

    @Test func theSignalAnswers304WhenTheWaitEnds() async throws {
        try await TestDaemon.with { server in
            let current = try await currentTag(server)
            for since in [current.bare, current.header] {
                let start = Date()
                let encoded = since.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? since
                let reply = try await server.http.get("/v1/version?since=\(encoded)&wait=2s&round=7")
                #expect(reply.status == 304)
                // The wait ends at the 2 s grid's first instant after the request arrived, and
                // names the round that starts there (`round=7` is long past). The request arrived
                // between `start` and now: on a loaded machine it may reach the daemon after the
                // instant that follows `start`, and then the wait ends at the next one.
                let now = Date().timeIntervalSince1970
                let firstInstant = { (time: Double) in Int64((time / 2).rounded(.down)) + 1 }
                let round = try #require(reply.header("Livery-Round").flatMap { Int64($0) })
                let ended = round - 1
                #expect(
                    (firstInstant(start.timeIntervalSince1970)...firstInstant(now)).contains(ended),
                    "round \(round) after a wait from \(start.timeIntervalSince1970) to \(now)")
                // Not before the grid's instant, but for the spread of at most a tenth of the wait.
                #expect(now >= Double(ended) * 2 - 0.2)
                #expect(reply.header("Cache-Control") == "public, max-age=2")
            }
            #expect(try await server.http.get("/v1/version?wait=soon").status == 400)
        }
    }
}
