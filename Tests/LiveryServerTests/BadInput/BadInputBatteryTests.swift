import Foundation
import Livery
import LiveryServer
import LiveryTesting
import NIOHTTP1
import Testing

/// The bad-input battery: every case through a provider that holds a good spec, then through
/// the daemon, pushed and written straight into its folder. Each must produce its exact error
/// and leave the last good spec applied and served.
@Suite(.timeLimit(.minutes(2))) struct BadInputBatteryTests {
    static let cases = BadInput.syntaxCases + BadInput.structureCases

    @Test func theBatteryHasAtLeastFortyDistinctCases() {
        #expect(Self.cases.count >= 40)
        #expect(Set(Self.cases.map(\.name)).count == Self.cases.count)
    }

    // One at a time too: 67 folders written and parsed at once (two of them 50 MB) is a burst
    // of CPU and I/O that the timing-sensitive tests running beside the battery would feel.
    @Test(.serialized, arguments: cases)
    func aProviderRefusesItAndKeepsTheGoodSpec(_ bad: BadInput) throws {
        let folder = try bad.makeFolder()
        defer { bad.cleanUp(folder) }
        let provider = TraitsProvider()
        let card = StyledBox()
        provider.register(card, as: "card")
        try provider.load(Spec(directory: folder.url))
        let good = card.snapshot
        #expect(card.cornerRadius == 8)
        let goodIdentifiers = provider.spec?.identifiers

        try bad.bytes().write(to: folder.url(bad.path))
        let error = try #require(throws: SpecError.self) { try provider.load(Spec(directory: folder.url)) }
        #expect(Diagnostic(error) == bad.expected)
        #expect(error.description == bad.expected.compilerStyle)
        #expect(card.snapshot == good)
        #expect(provider.spec?.identifiers == goodIdentifiers)
    }

    // One daemon at a time, for the same reason: 67 daemons at once (with 50 MB bodies and
    // files) would starve the timing-sensitive tests running beside them.
    @Test(.serialized, arguments: cases)
    func theDaemonRefusesAPushAndThenTheFileOnDiskAndServesTheLastGood(_ bad: BadInput) async throws {
        let folder = try bad.makeFolder()
        defer { bad.cleanUp(folder) }
        try await TestDaemon.with(folder: folder) { server in
            let good = try await server.http.get("/v1/spec")
            try #require(good.status == 200)
            let entries = try folderEntries(folder)

            let reply = try await server.http.send(
                .PUT, "/v1/specs/\(bad.path)", body: bad.bytes(),
                headers: [("Authorization", "Bearer \(TestDaemon.token)")])
            #expect(reply.header("Content-Type") == "application/problem+json")
            let problem = try JSONDecoder().decode(Problem.self, from: reply.body)
            switch bad.push {
            case .invalid:
                #expect(reply.status == 422)
                #expect(problem.errors?.first == bad.expected, "\(problem.errors ?? [])")
            case .tooLarge:
                #expect(reply.status == 413)
                #expect(problem.detail == "the body is larger than the limit of 1048576 bytes")
            }
            #expect(try folderEntries(folder) == entries, "nothing was written")
            try await expectServing(good, by: server)

            // The same bytes written by hand into the watched folder: reported, not served.
            try bad.bytes().write(to: folder.url(bad.path))
            let reported = try await TestDaemon.eventually(timeout: .seconds(10)) {
                let status = try await server.http.get("/v1/status").body
                return try JSONDecoder().decode(DaemonStatus.self, from: status).errors.first == bad.expected
            }
            let status = try JSONDecoder().decode(DaemonStatus.self, from: try await server.http.get("/v1/status").body)
            #expect(reported, "status errors: \(status.errors)")
            #expect(status.etag == good.header("ETag"))
            let metrics = try await server.http.get("/metrics").text
            #expect(metrics.contains(#"livery_rejected_specs_total{environment="default",source="disk"} "#))
            #expect(!metrics.contains(#"livery_rejected_specs_total{environment="default",source="disk"} 0"#))
            try await expectServing(good, by: server)
        }
    }

    private func expectServing(_ good: HTTP.Reply, by server: TestDaemon) async throws {
        let now = try await server.http.get("/v1/spec")
        #expect(now.status == 200)
        #expect(now.header("ETag") == good.header("ETag"))
        #expect(now.body == good.body)
    }
}

/// The part of `GET /v1/status` the battery reads.
struct DaemonStatus: Decodable {
    var etag: String?
    var errors: [Diagnostic]
}

extension BadInput {
    /// Removes what ``setUp`` made outside the folder.
    func cleanUp(_ folder: TemporarySpecFolder) {
        let outside = folder.url.deletingLastPathComponent().appending(path: folder.url.lastPathComponent + "-outside")
        // Best effort: most cases make nothing outside, and a leftover temporary folder harms nothing.
        try? FileManager.default.removeItem(at: outside)
    }
}
