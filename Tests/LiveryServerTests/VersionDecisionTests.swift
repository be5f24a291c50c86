import Foundation
import HTTPTypes
@_spi(LiveryInternal) import LiveryHTTP
import NIOCore
import Testing

@testable import LiveryServer

/// ``BundleDecision`` for `GET /v1/spec/{etag}` and `GET /v1/version`.
@Suite struct VersionDecisionTests {
    let snapshot = BundleSnapshot(bundleJSON: #"{"specs":{}}"#)

    private func response(_ answer: BundleAnswer) throws -> BundleResponse {
        guard case .respond(let response) = answer else { throw HTTPTestError("waits: \(answer)") }
        return response
    }

    @Test func aVersionNeverWaitsAndIs404UnlessItIsTheOneAtHand() throws {
        let wanted = BundleQuery(wait: .duration(.seconds(30)), resource: .version(snapshot.etag.opaque))
        let found = try response(BundleDecision.decide(wanted, state: .loaded(snapshot), mayWait: true))
        #expect(found.status == .ok && found.body == snapshot.bytes)
        #expect(found.fields[.cacheControl] == "public, max-age=31536000, immutable")
        let other = BundleQuery(resource: .version("0123456789abcdef"))
        #expect(BundleDecision.respond(to: other, state: .loaded(snapshot)).status == .notFound)
        #expect(BundleDecision.respond(to: other, state: .unavailable([])).status == .notFound)
        let revalidated = BundleQuery(
            condition: .tags([.init(opaque: snapshot.etag.opaque, weak: false)]),
            resource: .version(snapshot.etag.opaque))
        let notModified = BundleDecision.respond(to: revalidated, state: .loaded(snapshot))
        #expect(
            notModified.status == .notModified
                && notModified.fields[.cacheControl] == "public, max-age=31536000, immutable")
    }

    @Test func theSignalWaitsOnlyWhileSinceIsCurrent() throws {
        let stale = BundleQuery(wait: .duration(.seconds(30)), resource: .versionSignal(since: "0123456789abcdef"))
        let named = try response(BundleDecision.decide(stale, state: .loaded(snapshot), mayWait: true))
        #expect(named.status == .ok)
        #expect(named.body.map { String(buffer: $0) } == #"{"etag":"\"\#(snapshot.etag.opaque)\""}"#)
        let current = BundleQuery(wait: .duration(.seconds(30)), resource: .versionSignal(since: snapshot.etag.opaque))
        // 12.5 s into a round of the 30 s grid: the wait lasts until the round ends.
        let start = Date(timeIntervalSince1970: 30 * 40_000_000 + 12.5)
        guard case .wait(let wait) = BundleDecision.decide(current, state: .loaded(snapshot), mayWait: true, now: start)
        else {
            Issue.record("did not wait")
            return
        }
        #expect(wait == .milliseconds(17_500))
        // Ended a little early or late (the daemon spreads its wake-ups), it names the same next
        // round: the wait that ends at the grid's following instant.
        for end in [start + 17.3, start + 17.5, start + 18.4] {
            let ended = try response(
                BundleDecision.decide(current, state: .loaded(snapshot), mayWait: false, now: end))
            #expect(ended.status == .notModified && ended.fields[.cacheControl] == "public, max-age=30")
            #expect(ended.fields[HTTPField.Name("Livery-Round")!] == "40000002")
        }
        // Asked for early, that round still waits until its own instant (here: the whole wait);
        // asked for late, a round waits until the grid's next instant.
        func hold(round: Int64, at now: Date) -> Duration? {
            let query = BundleQuery(
                wait: .duration(.seconds(30)), resource: .versionSignal(since: snapshot.etag.opaque, round: round))
            guard case .wait(let wait) = BundleDecision.decide(query, state: .loaded(snapshot), mayWait: true, now: now)
            else { return nil }
            return wait
        }
        #expect(hold(round: 40_000_002, at: start + 17.3) == .seconds(30))
        #expect(hold(round: 40_000_002, at: start + 27.5) == .milliseconds(20_000))
        #expect(hold(round: 40_000_001, at: start + 22.5) == .milliseconds(25_000))
        // Without a wait there is no round, and the answer is fresh for a second only.
        let asked = BundleQuery(resource: .versionSignal(since: snapshot.etag.opaque))
        let now = BundleDecision.respond(to: asked, state: .loaded(snapshot))
        #expect(now.status == .notModified && now.fields[.cacheControl] == "public, max-age=1")
        #expect(now.fields[HTTPField.Name("Livery-Round")!] == nil)
        let head = BundleDecision.respond(
            to: BundleQuery(isHead: true, resource: .versionSignal(since: nil)), state: .loaded(snapshot))
        #expect(head.status == .ok && head.body == nil && head.fields[.contentLength] == named.fields[.contentLength])
    }

    @Test func theRequestLineNamesTheResource() throws {
        func resource(_ path: String) -> BundleQuery.Resource? {
            BundleQuery(HTTPRequest(method: .get, scheme: nil, authority: nil, path: path))?.resource
        }
        #expect(resource("/v1/spec") == .current)
        #expect(resource("/v1/spec?wait=5s") == .current)
        #expect(resource("/v1/spec/abc") == .version("abc"))
        #expect(resource("/v1/version?since=abc&wait=1s") == .versionSignal(since: "abc"))
        #expect(resource("/v1/version?since=abc&wait=1s&round=42") == .versionSignal(since: "abc", round: 42))
        #expect(resource("/v1/version?since=abc&round=soon") == .versionSignal(since: "abc"))
        #expect(resource("/v1/version") == .versionSignal(since: nil))
        #expect(resource("/v1/spec/") == nil)
        #expect(resource("/v1/spec/a/b") == nil)
        #expect(resource("/v1/specs/a.yaml") == nil)
    }
}
