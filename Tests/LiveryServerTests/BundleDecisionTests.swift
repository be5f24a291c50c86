import Foundation
import HTTPTypes
@_spi(LiveryInternal) import LiveryHTTP
import NIOCore
import Testing

@testable import LiveryServer

/// The one decision every path that answers `GET /v1/spec` calls.
@Suite struct BundleDecisionTests {
    let snapshot = BundleSnapshot(bundleJSON: #"{"specs":{}}"#)
    var current: EntityTagCondition { .tags([.init(opaque: snapshot.etag.opaque, weak: false)]) }

    private func response(_ answer: BundleAnswer) throws -> BundleResponse {
        guard case .respond(let response) = answer else { throw HTTPTestError("waits: \(answer)") }
        return response
    }

    @Test func aClientWithoutTheBundleGetsIt() throws {
        for condition in [nil, EntityTagCondition.tags([.init(opaque: "old", weak: false)])] {
            let answer = try response(
                BundleDecision.decide(
                    .init(condition: condition, wait: .duration(.seconds(30))), state: .loaded(snapshot), mayWait: true)
            )
            #expect(answer.status == .ok)
            #expect(answer.body == snapshot.bytes)
            #expect(answer.fields[.eTag] == snapshot.etag.description)
            #expect(answer.fields[.contentLength] == String(snapshot.bytes.readableBytes))
        }
    }

    @Test func aClientWithTheBundleWaitsWhileItMay() throws {
        let query = BundleQuery(condition: current, wait: .duration(.seconds(30)))
        guard case .wait(let wait) = BundleDecision.decide(query, state: .loaded(snapshot), mayWait: true) else {
            Issue.record("did not wait")
            return
        }
        #expect(wait == .seconds(30))
        let ended = try response(BundleDecision.decide(query, state: .loaded(snapshot), mayWait: false))
        #expect(ended.status == .notModified && ended.body == nil)
        let weak = BundleQuery(condition: .tags([.init(opaque: snapshot.etag.opaque, weak: true)]))
        #expect(
            try response(BundleDecision.decide(weak, state: .loaded(snapshot), mayWait: true)).status == .notModified)
        let zero = BundleQuery(condition: current, wait: .duration(.zero))
        #expect(
            try response(BundleDecision.decide(zero, state: .loaded(snapshot), mayWait: true)).status == .notModified)
    }

    @Test func headGetsTheFieldsOfGetWithoutABody() throws {
        for condition in [nil, current] {
            let get = BundleDecision.respond(to: .init(condition: condition), state: .loaded(snapshot))
            let head = BundleDecision.respond(to: .init(isHead: true, condition: condition), state: .loaded(snapshot))
            #expect(get.status == head.status && get.fields == head.fields)
            #expect(head.body == nil)
        }
        let get = BundleDecision.respond(to: .init(), state: .unavailable([]))
        let head = BundleDecision.respond(to: .init(isHead: true), state: .unavailable([]))
        #expect(get.status == .serviceUnavailable && get.fields == head.fields && head.body == nil)
    }

    @Test func noBundleYetIs503UnlessTheClientWaits() throws {
        let answer = try response(BundleDecision.decide(.init(), state: .unavailable([]), mayWait: true))
        #expect(answer.status == .serviceUnavailable)
        #expect(answer.fields[.retryAfter] == "1")
        #expect(answer.fields[.contentType] == "application/problem+json")
        #expect(answer.body.map { String(buffer: $0) }?.contains("urn:livery:problem:no-bundle") == true)
        guard
            case .wait = BundleDecision.decide(
                .init(wait: .duration(.seconds(1))), state: .unavailable([]), mayWait: true)
        else {
            Issue.record("did not wait for a first bundle")
            return
        }
    }

    @Test func aBadWaitIs400WhateverTheState() throws {
        for state in [BundleState.loaded(snapshot), .unavailable([])] {
            let answer = try response(
                BundleDecision.decide(.init(condition: current, wait: .invalid("soon")), state: state, mayWait: true))
            #expect(answer.status == .badRequest)
            #expect(answer.body.map { String(buffer: $0) }?.contains("wait=soon is not a duration") == true)
        }
    }
}
