import Foundation
import LiveryServer
import LiveryTestSupport
import LiveryTesting
import Testing

/// A folder daemon stopped between keeping the approval that completes a change and keeping
/// what became of it: the ledger is left as that daemon left it (the change pending, its
/// approvals complete, held since then), and the next daemon on the same folders takes it up
/// once: applied, or found applied already; a hold younger than a minute is left to its daemon.
@Suite(.timeLimit(.minutes(2)), .inotifyShared)
struct ChangeRecoveryTests {
    /// The message change 1 (alice's PUT of the new palette) is written with once approved.
    static let appliedMessage = "change 1: PUT /v1/specs/palette.yaml (approved by bob, carol)"

    /// A specs folder with the example and a state folder, shared by the daemons of a test.
    struct Folders {
        let specs: TemporarySpecFolder
        let state: TemporarySpecFolder

        init() throws {
            specs = try TemporarySpecFolder(prefix: "livery-recovery")
            try TestDaemon.writeExample(to: specs)
            state = try TemporarySpecFolder(prefix: "livery-recovery-state")
        }

        /// Runs a daemon on the folders, on `clock` if given.
        func daemon<T>(clock: ManualClock? = nil, _ body: (TestDaemon) async throws -> T) async throws -> T {
            try await TestDaemon.with(
                folder: specs,
                configure: { configuration in
                    configuration.stateDirectory = state.url
                    if let clock { configuration.scheduleClock = clock }
                }, body)
        }

        /// The file of the environment's change requests in the state folder.
        func ledgerFile() throws -> URL {
            let names = try FileManager.default.contentsOfDirectory(atPath: state.url.path)
            let name = try #require(names.first { $0.hasPrefix("changes-") && $0.hasSuffix(".json") }, "\(names)")
            return state.url.appending(path: name)
        }
    }

    /// Protects the environment with two approvals, has alice ask for the new palette and bob
    /// approve it: change 1, pending with one approval of two. The keys.
    static func askAndApproveOnce(_ server: TestDaemon) async throws -> ChangeRequestTests.Reviewers {
        #expect(try await server.http.put("/v1/protection", #"{"approvals": 2}"#).status == 200)
        let keys = try await ChangeRequestTests.Reviewers(server)
        let held = try await server.http.put(
            "/v1/specs/palette.yaml", ChangeRequestTests.newPalette, token: .some(keys.alice))
        #expect(held.status == 202, "\(held.text)")
        let first = try await ChangeRequestTests.review(server, 1, "approve", key: keys.bob)
        #expect(try first.json()["state"] as? String == "pending", "\(first.text)")
        return keys
    }

    /// The ledger `data` as a daemon leaves it when it stopped right after keeping carol's
    /// approval of change 1, the one that completes it, held since `since`.
    static func stoppedAfterTheLastApproval(_ data: Data, since: Date) throws -> Data {
        var ledger = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        var changes = try #require(ledger["changes"] as? [[String: Any]])
        let index = try #require(changes.firstIndex { $0["id"] as? Int == 1 })
        var approvals = try #require(changes[index]["approvals"] as? [[String: Any]])
        approvals.append(["by": "carol", "time": Date().formatted(.iso8601), "message": ""])
        changes[index]["approvals"] = approvals
        changes[index]["applyingSince"] = ScheduleTime.text(of: since)
        ledger["changes"] = changes
        return try JSONSerialization.data(withJSONObject: ledger, options: [.sortedKeys])
    }

    /// Leaves the folders' ledger as a daemon stopped after the last approval does.
    static func stopAfterTheLastApproval(_ folders: Folders, since: Date) throws {
        let file = try folders.ledgerFile()
        try stoppedAfterTheLastApproval(try Data(contentsOf: file), since: since).write(to: file)
    }

    /// The entries of `server`'s history whose message is `message`.
    static func entries(_ server: TestDaemon, _ message: String) async throws -> [[String: Any]] {
        try await ChangeRequestTests.history(server, limit: 50).filter { $0["message"] as? String == message }
    }

    @Test func theNextDaemonAppliesAChangeItsDaemonStoppedBeforeApplyingAsItStarts() async throws {
        let folders = try Folders()
        let before = try await folders.daemon { server in
            _ = try await Self.askAndApproveOnce(server)
            return try await server.bundleETag()
        }
        try Self.stopAfterTheLastApproval(folders, since: Date().addingTimeInterval(-600))

        try await folders.daemon { server in
            // Taken up as the daemon starts: nothing asks for the change requests here.
            #expect(
                try await TestDaemon.eventually(timeout: .seconds(15)) {
                    try await server.http.get("/v1/specs/palette.yaml").text == ChangeRequestTests.newPalette
                })
            #expect(try await TestDaemon.eventually { try await server.bundleETag() != before })
            let written = try await Self.entries(server, Self.appliedMessage)
            #expect(written.count == 1, "\(written)")
            #expect(written.first?["by"] as? String == "alice")
            let revision = try #require(written.first?["revision"] as? Int)
            let taken = try await Self.entries(
                server,
                "change 1 taken up again: its 2 approvals were kept, but the daemon applying it stopped")
            #expect(taken.map { $0["by"] as? String } == ["livery"])
            #expect(try await Self.entries(server, "change 1 applied as revision \(revision)").count == 1)

            let change = try await server.http.get("/v1/changes/1").json()
            #expect(change["state"] as? String == "applied" && change["revision"] as? Int == revision, "\(change)")
            #expect(change["applyingSince"] == nil)
            let dave = try await server.addKey("dave", scopes: ["approve"], environments: ["default"])
            let late = try await ChangeRequestTests.review(server, 1, "approve", key: dave)
            #expect(try ChangeRequestTests.kind(late) == "change-closed", "\(late.text)")
        }
    }

    @Test func aChangeWrittenBeforeItsDaemonStoppedIsFoundAppliedNeverStale() async throws {
        let folders = try Folders()
        let revision = try await folders.daemon { server in
            _ = try await Self.askAndApproveOnce(server)
            // The daemon wrote the change, then stopped before it kept that: its write is in the
            // history under the change's message.
            #expect(try await server.http.delete("/v1/protection").status == 200)
            let written = try await server.http.publish(
                ["palette.yaml": ChangeRequestTests.newPalette], message: Self.appliedMessage)
            #expect(written.status == 200, "\(written.text)")
            return try #require(try written.json()["revision"] as? Int)
        }
        try Self.stopAfterTheLastApproval(folders, since: Date().addingTimeInterval(-600))

        try await folders.daemon { server in
            #expect(
                try await TestDaemon.eventually(timeout: .seconds(15)) {
                    try await server.http.get("/v1/changes/1").json()["state"] as? String != "pending"
                })
            let change = try await server.http.get("/v1/changes/1").json()
            #expect(change["state"] as? String == "applied" && change["revision"] as? Int == revision, "\(change)")
            #expect(try await Self.entries(server, Self.appliedMessage).count == 1, "written once")
            #expect(try await server.http.get("/v1/specs/palette.yaml").text == ChangeRequestTests.newPalette)
        }
    }

    @Test func aFreshHoldIsLeftToItsDaemonAMinuteThenTakenUpByTheNextRead() async throws {
        let folders = try Folders()
        let clock = ManualClock()
        let before = try await folders.daemon(clock: clock) { server in
            _ = try await Self.askAndApproveOnce(server)
            return try await server.bundleETag()
        }
        try Self.stopAfterTheLastApproval(folders, since: clock.now)

        try await folders.daemon(clock: clock) { server in
            let held = try await server.http.get("/v1/changes/1").json()
            #expect(held["state"] as? String == "pending", "\(held)")
            #expect(held["applyingSince"] as? String == ScheduleTime.text(of: clock.now))
            let dave = try await server.addKey("dave", scopes: ["approve"], environments: ["default"])
            for verb in ["approve", "reject"] {
                let refused = try await ChangeRequestTests.review(server, 1, verb, key: dave)
                #expect(refused.status == 409, "\(refused.text)")
                #expect(try ChangeRequestTests.kind(refused) == "change-closed")
                #expect(refused.text.contains("is being applied"), "\(refused.text)")
            }
            #expect(try await server.bundleETag() == before)

            clock.advance(by: 59)
            #expect(try await server.http.get("/v1/changes/1").json()["state"] as? String == "pending")
            clock.advance(by: 1)
            let taken = try await server.http.get("/v1/changes/1").json()
            #expect(taken["state"] as? String == "applied", "\(taken)")
            #expect(try await server.http.get("/v1/specs/palette.yaml").text == ChangeRequestTests.newPalette)
            #expect(try await Self.entries(server, Self.appliedMessage).count == 1)
        }
    }
}
