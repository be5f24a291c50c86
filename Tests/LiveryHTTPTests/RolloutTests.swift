import Foundation
import LiveryHTTP
import Testing

/// The cohort rule of staged rollouts, and the SHA-256 behind it.
@Suite struct RolloutTests {
    /// Digests from Python's `hashlib.sha256(m).hexdigest()`; the first three are FIPS 180-2's
    /// examples, the others sit on the padding's edges (55, 56 and 64 bytes) and span blocks.
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        (
            "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        ),
        (String(repeating: "a", count: 55), "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318"),
        (String(repeating: "a", count: 56), "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a"),
        (String(repeating: "a", count: 64), "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb"),
        (String(repeating: "a", count: 1000), "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3"),
    ])
    func sha256MatchesTheStandard(message: String, hex: String) {
        let digest = SHA256.digest(message.utf8)
        #expect(digest.map { String(format: "%02x", $0) }.joined() == hex)
    }

    /// Buckets computed independently:
    /// `int.from_bytes(hashlib.sha256(f"{id}:{instance}".encode()).digest()[:8], "big") % 10000`.
    @Test(arguments: [
        ("r1", "host-1", 7410),
        ("0123456789abcdef", "shop-web-7", 2122),
        ("r1", "i-0", 7515),
        ("abc", "café", 4840),
    ])
    func bucketsAreTheFormulas(id: String, instance: String, bucket: Int) {
        #expect(Rollout.bucket(id: id, instance: instance) == bucket)
        let rollout = Rollout(id: id, basisPoints: bucket, stable: "\"s\"", candidate: "\"c\"")
        #expect(!rollout.includes(instance: instance))  // below the share, not at it
        #expect(
            Rollout(id: id, basisPoints: bucket + 1, stable: "\"s\"", candidate: "\"c\"").includes(instance: instance))
    }

    /// The 22 of `follower-0` … `follower-199` that Python's hashlib puts in the 10 % cohort of
    /// `rollout-7` (the fleet tests use the same names).
    @Test func tenPercentOfTwoHundredIsThePythonList() {
        let rollout = Rollout(id: "rollout-7", basisPoints: 1000, stable: "\"s\"", candidate: "\"c\"")
        let cohort = (0..<200).filter { rollout.includes(instance: "follower-\($0)") }
        #expect(
            cohort == [
                4, 5, 20, 27, 36, 41, 53, 81, 83, 98, 99, 118, 120, 129, 130, 140, 146, 152, 178, 190, 191, 194,
            ])
    }

    @Test func raisingTheShareOnlyAddsClients() {
        let instances = (0..<2000).map { "host-\($0):\($0 * 7)" }
        var previous = Set<String>()
        for points in stride(from: 0, through: 10_000, by: 250) {
            let rollout = Rollout(id: "widen", basisPoints: points, stable: "\"s\"", candidate: "\"c\"")
            let cohort = Set(instances.filter(rollout.includes(instance:)))
            #expect(previous.isSubset(of: cohort))
            previous = cohort
        }
        #expect(previous.count == instances.count)
        let tenPercent = Rollout(id: "widen", basisPoints: 1000, stable: "\"s\"", candidate: "\"c\"")
        let share = instances.filter(tenPercent.includes(instance:)).count
        #expect((140...260).contains(share), "10 % of 2,000 drew \(share)")
    }

    @Test func versionFollowsStateAndCohort() {
        var rollout = Rollout(id: "r1", basisPoints: 7411, stable: "\"s\"", candidate: "\"c\"")
        #expect(rollout.version(for: "host-1") == "\"c\"")
        #expect(rollout.version(for: "i-0") == "\"s\"")
        #expect(rollout.version(for: nil) == "\"s\"")
        rollout.state = .aborted
        #expect(rollout.version(for: "host-1") == "\"s\"")
        rollout.state = .completed
        #expect(rollout.version(for: "i-0") == "\"c\"")
    }

    @Test(arguments: [
        ("10%", 1000), ("10", 1000), ("12.5%", 1250), ("0.01%", 1), ("100%", 10_000), (" 0% ", 0), ("7.05", 705),
    ])
    func readsShares(text: String, points: Int) {
        #expect(Rollout.basisPoints(parsing: text) == points)
        #expect(Rollout.basisPoints(parsing: Rollout.percentText(points)) == points)
    }

    @Test(arguments: ["", "%", "101%", "-1%", "1.234%", "1.%", ".5%", "ten", "1e1", "0x10", "1000%", "５%"])
    func refusesOtherShares(text: String) {
        #expect(Rollout.basisPoints(parsing: text) == nil)
    }

    @Test func theSignalTagChangesWithEveryPartOfTheSignal() {
        let base = Rollout(id: "r1", basisPoints: 1000, stable: "\"aaaa\"", candidate: "\"bbbb\"")
        var wider = base
        wider.basisPoints = 2000
        var completed = base
        completed.state = .completed
        var otherStable = base
        otherStable.stable = "\"cccc\""
        var other = base
        other.id = "r2"
        let tags = [base, wider, completed, otherStable, other].map(\.signalTag)
        #expect(Set(tags).count == tags.count)
        #expect(base.signalTag == "aaaa.r1.1000")
    }

    @Test func signalReadsBackAndChoosesForItsClient() throws {
        let rollout = Rollout(id: "r1", basisPoints: 1250, stable: "\"s\"", candidate: "\"c\"")
        let signal = VersionSignal(etag: "\"s\"", rollout: rollout)
        let decoded = try JSONDecoder().decode(VersionSignal.self, from: JSONEncoder().encode(signal))
        #expect(decoded == signal)
        #expect(decoded.rollout?.percent == 12.5)
        #expect(decoded.sinceTag == rollout.signalTag)
        let plain = try JSONDecoder().decode(VersionSignal.self, from: Data(#"{"etag": "\"s\""}"#.utf8))
        #expect(plain.rollout == nil && plain.sinceTag == "\"s\"" && plain.version(for: "host-1") == "\"s\"")
        let bad = Data(
            #"{"etag": "\"s\"", "rollout": {"id": "r", "percent": 101, "stable": "", "candidate": "", "state": "running"}}"#
                .utf8)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(VersionSignal.self, from: bad) }
    }
}

/// The rollout's fields of the `Livery-Client` header.
@Suite struct RolloutClientHeaderTests {
    @Test func refusalsAndProblemsReadBack() throws {
        let identity = try ClientIdentity(name: "shop", instance: "host-3")
        let header = LiveryClientHeader(
            identity: identity, applied: "\"a\"", refused: "\"b\"", problem: "\"a\"",
            note: "checkout button \"invisible\"; " + String(repeating: "é", count: 100))
        #expect(header.note?.utf8.count ?? 0 <= ClientIdentity.maxFieldBytes)
        let read = try LiveryClientHeader(fieldValue: header.fieldValue)
        #expect(read == header)
        #expect(read.refused == "\"b\"" && read.problem == "\"a\"")
    }

    @Test func aRefusedThatIsNotAStringNamesItsColumn() {
        #expect(throws: ClientHeaderError.self) {
            try LiveryClientHeader(fieldValue: #"name="a", instance="b", refused=3"#)
        }
    }
}
