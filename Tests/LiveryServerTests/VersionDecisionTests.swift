import Foundation
import HTTPTypes
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
        guard case .wait(let wait) = BundleDecision.decide(current, state: .loaded(snapshot), mayWait: true) else {
            Issue.record("did not wait")
            return
        }
        #expect(wait == .seconds(30))
        let ended = try response(BundleDecision.decide(current, state: .loaded(snapshot), mayWait: false))
        #expect(ended.status == .notModified && ended.fields[.cacheControl] == "public, max-age=1")
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
        #expect(resource("/v1/version") == .versionSignal(since: nil))
        #expect(resource("/v1/spec/") == nil)
        #expect(resource("/v1/spec/a/b") == nil)
        #expect(resource("/v1/specs/a.yaml") == nil)
    }
}
