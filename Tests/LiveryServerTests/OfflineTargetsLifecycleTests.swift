import Foundation
import Livery
import LiveryServer
import LiveryTUF
import LiveryTestSupport
import LiveryTesting
import Testing

/// Offline targets (`livery serve --signing DIR --offline-targets`) through a change's whole
/// life: a staged rollout's start, share change, abort and completion each publish targets
/// signed for them; a change held on a protected environment, and a scheduled push, carry the
/// targets signed when asked for into the same check when they are applied. Whatever is not
/// signed for exactly what it publishes is refused, and nothing is published.
@Suite(.timeLimit(.minutes(2)), .inotifyShared)
struct OfflineTargetsLifecycleTests {
    private typealias Offline = OfflineTargetsTests

    private static let red = "#FF0000"
    private static let green = "#00FF00"
    private static let blue = "#0000FF"

    /// The ETag of the bundle `files` make, as the daemon names it.
    private static func etag(_ files: [String: String]) throws -> String {
        EntityTag(of: try Offline.spec(files).bundleJSON.utf8).description
    }

    /// The targets while a rollout `id` of `candidate` at `basisPoints` runs over `stable`.
    private static func rolloutTargets(
        id: String, basisPoints: Int, stable: [String: String], candidate: [String: String]
    ) throws -> [String: TargetFile] {
        let rollout = Rollout(
            id: id, basisPoints: basisPoints, stable: try etag(stable), candidate: try etag(candidate))
        return TUFTargets.files(of: try Offline.spec(stable), candidate: (rollout, try Offline.spec(candidate)))
    }

    private static func kind(_ reply: HTTP.Reply) throws -> String? {
        (try reply.json()["type"] as? String)?.replacingOccurrences(of: "urn:livery:problem:", with: "")
    }

    /// Publishes the example with red as targets version 1, signed by `key`.
    private static func publishRed(_ server: TestDaemon, key: SigningKey) async throws {
        let signed = try Offline.signedTargets(of: Offline.example(accent: red), version: 1, key: key)
        let reply = try await server.http.publish(
            ["palette.yaml": Offline.palette(red)], headers: [(OfferedTargets.fieldName, signed)])
        #expect(reply.status == 200, "\(reply.text)")
    }

    @Test func aRolloutStartsChangesAbortsAndCompletesOnlyWithTargetsSignedForEachStep() async throws {
        let scratch = try TemporarySpecFolder(prefix: "livery-offline-rollout")
        let (signing, key) = try Offline.offlineSigning(in: scratch)
        try await TestDaemon.with(configure: { $0.signing = signing }) { server in
            try await Self.publishRed(server, key: key)
            let (stable, candidate) = (Offline.example(accent: Self.red), Offline.example(accent: Self.green))
            let start = "/v1/specs/palette.yaml?rollout=10"
            let startTargets = try Self.rolloutTargets(
                id: "00000000000000a1", basisPoints: 1000, stable: stable, candidate: candidate)

            let refusals: [(String, [(String, String)])] = [
                ("no signature", []),
                (
                    "the rollout signed at another share",
                    [
                        (
                            OfferedTargets.fieldName,
                            try Offline.signedTargets(
                                try Self.rolloutTargets(
                                    id: "00000000000000a1", basisPoints: 2000, stable: stable, candidate: candidate),
                                version: 2, key: key)
                        )
                    ]
                ),
                (
                    "the candidate's version signed as a publish",
                    [(OfferedTargets.fieldName, try Offline.signedTargets(of: candidate, version: 2, key: key))]
                ),
            ]
            for (why, headers) in refusals {
                let reply = try await server.http.put(start, Offline.palette(Self.green), headers: headers)
                #expect(reply.status == 403, "\(why): \(reply.text)")
                #expect(try Self.kind(reply) == "targets-not-signed", "\(why)")
            }
            #expect(try await server.http.get("/v1/rollout").status == 404, "no rollout started")
            #expect(try await Offline.servedTargets(server, signing).version == 1, "nothing published")

            let signedStart = try Offline.signedTargets(startTargets, version: 2, key: key)
            let started = try await server.http.put(
                start, Offline.palette(Self.green), headers: [(OfferedTargets.fieldName, signedStart)])
            #expect(started.status == 200, "\(started.text)")
            #expect(try started.json()["id"] as? String == "00000000000000a1", "the id the signer chose")
            let afterStart = try await Offline.servedTargets(server, signing)
            #expect(afterStart.version == 2 && afterStart.base64 == signedStart, "the start's targets as signed")
            #expect(TUFTargets.rollout(in: afterStart.targets)?.basisPoints == 1000)

            let widen = #"{"action": "set", "percent": 25}"#
            let unsignedSet = try await server.http.post("/v1/rollout", json: widen)
            #expect(try unsignedSet.status == 403 && Self.kind(unsignedSet) == "targets-not-signed")
            let wrongShare = try Offline.signedTargets(
                try #require(TUFTargets.files(after: .share(5000), of: afterStart.targets)), version: 3, key: key)
            let wrongSet = try await server.http.post(
                "/v1/rollout", json: widen, headers: [(OfferedTargets.fieldName, wrongShare)])
            #expect(wrongSet.status == 403, "targets signed for 50% do not make a 25% rollout: \(wrongSet.text)")
            #expect(try await server.http.get("/v1/rollout").json()["percent"] as? Double == 10)
            let signedSet = try Offline.signedTargets(
                try #require(TUFTargets.files(after: .share(2500), of: afterStart.targets)), version: 3, key: key)
            let widened = try await server.http.post(
                "/v1/rollout", json: widen, headers: [(OfferedTargets.fieldName, signedSet)])
            #expect(widened.status == 200, "\(widened.text)")
            let afterSet = try await Offline.servedTargets(server, signing)
            #expect(afterSet.version == 3 && afterSet.base64 == signedSet)

            let abort = #"{"action": "abort"}"#
            #expect(try await server.http.post("/v1/rollout", json: abort).status == 403)
            #expect(try await server.http.get("/v1/rollout").json()["state"] as? String == "running")
            let signedAbort = try Offline.signedTargets(
                try #require(TUFTargets.files(after: .abort, of: afterSet.targets)), version: 4, key: key)
            let aborted = try await server.http.post(
                "/v1/rollout", json: abort, headers: [(OfferedTargets.fieldName, signedAbort)])
            #expect(aborted.status == 200, "\(aborted.text)")
            let afterAbort = try await Offline.servedTargets(server, signing)
            #expect(try afterAbort.version == 4 && afterAbort.targets == TUFTargets.files(of: Offline.spec(stable)))

            let again = try Offline.signedTargets(
                try Self.rolloutTargets(
                    id: "00000000000000a2", basisPoints: 1000, stable: stable, candidate: candidate),
                version: 5, key: key)
            let restarted = try await server.http.put(
                start, Offline.palette(Self.green), headers: [(OfferedTargets.fieldName, again)])
            #expect(restarted.status == 200, "\(restarted.text)")
            let complete = #"{"action": "complete"}"#
            #expect(try await server.http.post("/v1/rollout", json: complete).status == 403)
            #expect(try await server.http.get("/v1/specs/palette.yaml").text.contains(Self.red))
            let completion = try #require(
                TUFTargets.files(after: .complete, of: try await Offline.servedTargets(server, signing).targets))
            #expect(try completion == TUFTargets.files(of: Offline.spec(candidate)), "the candidate, no rollout")
            let signedCompletion = try Offline.signedTargets(completion, version: 6, key: key)
            let completed = try await server.http.post(
                "/v1/rollout", json: complete, headers: [(OfferedTargets.fieldName, signedCompletion)])
            #expect(completed.status == 200, "\(completed.text)")
            let afterCompletion = try await Offline.servedTargets(server, signing)
            #expect(afterCompletion.version == 6 && afterCompletion.base64 == signedCompletion)
            let bundle = try #require(afterCompletion.targets["bundle.json"])
            #expect(
                try await TestDaemon.eventually { bundle.matches(try await server.http.get("/v1/spec").body) },
                "the daemon serves the candidate's bytes as signed")
        }
    }

    @Test func aHeldChangeCarriesItsSignedTargetsToItsApproval() async throws {
        let scratch = try TemporarySpecFolder(prefix: "livery-offline-held")
        let (signing, key) = try Offline.offlineSigning(in: scratch)
        let state = try TemporarySpecFolder(prefix: "livery-offline-held-state")
        try await TestDaemon.with(configure: {
            $0.signing = signing; $0.stateDirectory = state.url
        }) { server in
            try await Self.publishRed(server, key: key)
            #expect(try await server.http.put("/v1/protection", #"{"approvals": 1}"#).status == 200)
            let alice = try await server.addKey("alice", scopes: ["push", "rollout"], environments: ["default"])
            let bob = try await server.addKey("bob", scopes: ["approve"], environments: ["default"])
            let approve = { (id: Int) async throws -> HTTP.Reply in
                try await server.http.post("/v1/changes/\(id)/approve", json: "{}", token: .some(bob))
            }
            let green = Offline.example(accent: Self.green)
            let palette = "/v1/specs/palette.yaml"

            let unsigned = try await server.http.put(palette, Offline.palette(Self.green), token: .some(alice))
            #expect(try unsigned.status == 403 && Self.kind(unsigned) == "targets-not-signed", "\(unsigned.text)")
            #expect(unsigned.text.contains("--sign-with"), "\(unsigned.text)")
            let listed = try await server.http.get("/v1/changes").json()["changes"] as? [Any]
            #expect(listed?.isEmpty == true, "nothing held")

            let signedGreen = try Offline.signedTargets(of: green, version: 2, key: key)
            let held = try await server.http.put(
                palette, Offline.palette(Self.green), token: .some(alice),
                headers: [(OfferedTargets.fieldName, signedGreen)])
            #expect(held.status == 202, "\(held.text)")
            #expect(try held.json()["signedTargets"] as? String == signedGreen, "kept with the change")
            // Signed for green, asked for blue: kept, and refused when applied.
            let mismatched = try await server.http.put(
                palette, Offline.palette(Self.blue), token: .some(alice),
                headers: [(OfferedTargets.fieldName, signedGreen)])
            #expect(mismatched.status == 202, "\(mismatched.text)")
            let refused = try await approve(2)
            #expect(try refused.status == 403 && Self.kind(refused) == "targets-not-signed", "\(refused.text)")
            #expect(refused.text.contains("reject it and push it again with --sign-with"), "\(refused.text)")
            #expect(try await server.http.get("/v1/changes/2").json()["state"] as? String == "pending")
            #expect(try await Offline.servedTargets(server, signing).version == 1, "nothing published")
            #expect(try await server.http.get(palette).text.contains(Self.red))

            let applied = try await approve(1)
            #expect(try applied.json()["state"] as? String == "applied", "\(applied.text)")
            let afterApply = try await Offline.servedTargets(server, signing)
            #expect(afterApply.version == 2 && afterApply.base64 == signedGreen, "the held targets, published")
            let bundle = try #require(afterApply.targets["bundle.json"])
            #expect(try await TestDaemon.eventually { bundle.matches(try await server.http.get("/v1/spec").body) })

            // Held signed for version 3; a rollout started and aborted meanwhile (signed, by an
            // admin's bypass) moves the repository to version 4, the bundle unchanged.
            let blue = Offline.example(accent: Self.blue)
            let heldBlue = try await server.http.put(
                palette, Offline.palette(Self.blue), token: .some(alice),
                headers: [(OfferedTargets.fieldName, try Offline.signedTargets(of: blue, version: 3, key: key))])
            #expect(heldBlue.status == 202, "\(heldBlue.text)")
            let id = try #require(try heldBlue.json()["id"] as? Int)
            let rollout = try Self.rolloutTargets(
                id: "00000000000000b1", basisPoints: 500, stable: green, candidate: blue)
            let started = try await server.http.put(
                "\(palette)?rollout=5", Offline.palette(Self.blue),
                headers: [
                    ("Livery-Bypass-Approval", "true"),
                    (OfferedTargets.fieldName, try Offline.signedTargets(rollout, version: 3, key: key)),
                ])
            #expect(started.status == 200, "\(started.text)")
            let aborted = try await server.http.post(
                "/v1/rollout", json: #"{"action": "abort"}"#,
                headers: [
                    (
                        OfferedTargets.fieldName,
                        try Offline.signedTargets(
                            try #require(TUFTargets.files(after: .abort, of: rollout)), version: 4, key: key)
                    )
                ])
            #expect(aborted.status == 200, "\(aborted.text)")
            let moved = try await approve(id)
            #expect(moved.status == 403, "\(moved.text)")
            #expect(
                moved.text.contains("targets version 3, expected 5")
                    && moved.text.contains("reject it and push it again with --sign-with"), "\(moved.text)")
            #expect(try await Offline.servedTargets(server, signing).version == 4, "nothing published")
            #expect(try await server.http.get(palette).text.contains(Self.green))
        }
    }

    @Test func aChangeHeldOnOneEtcdDaemonIsAppliedWithItsSignedTargetsByAnother() async throws {
        let scratch = try TemporarySpecFolder(prefix: "livery-offline-held-etcd")
        let (signing, key) = try Offline.offlineSigning(in: scratch)
        try await EtcdCluster.with { cluster in
            try await TestDaemon.onEtcd(cluster, configure: { $0.signing = signing }) { a in
                try await TestDaemon.onEtcd(cluster, configure: { $0.signing = signing }) { b in
                    let red = Offline.example(accent: Self.red)
                    let first = try await a.http.publish(
                        red.mapValues { Optional($0) },
                        headers: [(OfferedTargets.fieldName, try Offline.signedTargets(of: red, version: 1, key: key))])
                    #expect(first.status == 200, "\(first.text)")
                    #expect(
                        try await TestDaemon.eventually { try await Offline.servedTargets(b, signing).version == 1 })
                    let alice = try await a.addKey("alice", scopes: ["push"], environments: ["default"])
                    let bob = try await a.addKey("bob", scopes: ["approve"], environments: ["default"])
                    #expect(
                        try await TestDaemon.eventually {
                            try await b.http.post("/v1/changes/99/approve", json: "{}", token: .some(bob)).status == 404
                        }, "b knows bob's key")
                    #expect(try await a.http.put("/v1/protection", #"{"approvals": 1}"#).status == 200)

                    let signedGreen = try Offline.signedTargets(
                        of: Offline.example(accent: Self.green), version: 2, key: key)
                    let held = try await a.http.put(
                        "/v1/specs/palette.yaml", Offline.palette(Self.green), token: .some(alice),
                        headers: [(OfferedTargets.fieldName, signedGreen)])
                    #expect(held.status == 202, "\(held.text)")
                    let applied = try await b.http.post("/v1/changes/1/approve", json: "{}", token: .some(bob))
                    #expect(try applied.json()["state"] as? String == "applied", "\(applied.text)")
                    for daemon in [b, a] {
                        #expect(
                            try await TestDaemon.eventually {
                                try await Offline.servedTargets(daemon, signing).base64 == signedGreen
                            }, "each daemon serves the targets signed when the change was asked for")
                    }
                }
            }
        }
    }

    @Test func aScheduledPushCarriesItsSignedTargetsToItsTime() async throws {
        let scratch = try TemporarySpecFolder(prefix: "livery-offline-schedule")
        let (signing, key) = try Offline.offlineSigning(in: scratch)
        let clock = ManualClock()
        let state = try TemporarySpecFolder(prefix: "livery-offline-schedule-state")
        try await TestDaemon.with(configure: {
            $0.signing = signing; $0.scheduleClock = clock; $0.stateDirectory = state.url
        }) { server in
            try await Self.publishRed(server, key: key)
            let push = { (accent: String, seconds: TimeInterval, signed: String?) async throws -> HTTP.Reply in
                try await server.schedule(
                    [
                        "action": "push", "at": ScheduleTime.text(of: clock.now.addingTimeInterval(seconds)),
                        "files": ["palette.yaml": Offline.palette(accent)],
                    ], headers: signed.map { [(OfferedTargets.fieldName, $0)] } ?? [])
            }
            let unsigned = try await push(Self.green, 600, nil)
            #expect(try unsigned.status == 403 && Self.kind(unsigned) == "targets-not-signed", "\(unsigned.text)")
            let share = try await server.schedule([
                "action": "rollout", "at": ScheduleTime.text(of: clock.now.addingTimeInterval(600)), "percent": 25,
            ])
            #expect(share.status == 403 && share.text.contains("livery rollout set P% --sign-with"), "\(share.text)")
            #expect((try await server.http.get("/v1/schedule").json()["changes"] as? [Any])?.isEmpty == true)

            let signedGreen = try Offline.signedTargets(of: Offline.example(accent: Self.green), version: 2, key: key)
            let planned = try await push(Self.green, 600, signedGreen)
            #expect(planned.status == 201, "\(planned.text)")
            #expect(try planned.json()["signedTargets"] == nil, "the listing leaves the signed targets out")
            // Blue signed as green's next version; and blue signed for the version green takes.
            let mismatched = try await push(
                Self.blue, 1200,
                try Offline.signedTargets(of: Offline.example(accent: Self.green), version: 3, key: key))
            let late = try await push(
                Self.blue, 1800,
                try Offline.signedTargets(of: Offline.example(accent: Self.blue), version: 2, key: key))
            let ids = try [planned, mismatched, late].map { try #require(try $0.json()["id"] as? String) }

            clock.advance(by: 600)
            #expect(try await TestDaemon.eventually { try await server.scheduleState(ids[0]) == ("done", ["done"]) })
            let published = try await Offline.servedTargets(server, signing)
            #expect(published.version == 2 && published.base64 == signedGreen, "the planned targets, published")

            clock.advance(by: 600)
            #expect(try await TestDaemon.eventually { try await server.scheduleState(ids[1]).0 == "failed" })
            let otherBytes = try #require(try await server.scheduled(ids[1])?["detail"] as? String)
            #expect(
                otherBytes.contains("signed for other bytes") && otherBytes.contains("plan it again with --sign-with"),
                "\(otherBytes)")

            clock.advance(by: 600)
            #expect(try await TestDaemon.eventually { try await server.scheduleState(ids[2]).0 == "failed" })
            let moved = try #require(try await server.scheduled(ids[2])?["detail"] as? String)
            #expect(moved.contains("targets version 2, expected 3"), "\(moved)")
            #expect(try await Offline.servedTargets(server, signing).version == 2, "nothing more published")
            #expect(try await server.http.get("/v1/specs/palette.yaml").text.contains(Self.green))
        }
    }
}
