package import Foundation
package import Hummingbird
@_spi(LiveryInternal) import LiveryHTTP
package import NIOCore

/// What the daemon holds for `GET /v1/spec`: a bundle, or the errors that keep the folder from
/// loading (none yet when it has not been read). For `GET /v1/spec/{etag}` the bundle is the
/// one kept of that version when there is one, else the current one (which then does not match).
package enum BundleState: Sendable {
    case loaded(BundleSnapshot)
    case unavailable([Diagnostic])
}

/// One answer to a request for the bundle: status, header fields (all but `Date`) and body.
package struct BundleResponse: Sendable {
    package let status: HTTPResponse.Status
    package let fields: HTTPFields
    /// `nil` for `304` and for every answer to `HEAD`.
    package let body: ByteBuffer?
    /// `status` and `fields` as bytes, for the answers made once per published bundle
    /// (``BundleRepresentation``); `nil` for answers made per request, whose fields may differ.
    let head: ResponseHead?

    /// An answer made for one request.
    init(status: HTTPResponse.Status, fields: HTTPFields, body: ByteBuffer?) {
        self.init(status: status, fields: fields, body: body, head: nil)
    }

    /// An answer made once per published bundle, its head rendered with it.
    init(prebuilt status: HTTPResponse.Status, fields: HTTPFields, body: ByteBuffer?) {
        self.init(status: status, fields: fields, body: body, head: ResponseHead(status: status, fields: fields))
    }

    /// `head` must be `status` and `fields` rendered, or `nil`.
    init(status: HTTPResponse.Status, fields: HTTPFields, body: ByteBuffer?, head: ResponseHead?) {
        self.status = status
        self.fields = fields
        self.body = body
        self.head = head
    }

    /// The answer as the router sends it.
    package var response: Response {
        Response(status: status, headers: fields, body: body.map { .init(byteBuffer: $0) } ?? .init())
    }
}

/// The rules of `GET /v1/spec` (and `HEAD`), in one place: every path that answers the bundle
/// — the raw one, the event-loop handler, the router — reads the request into a
/// ``BundleQuery`` and sends what this decides, so they cannot drift apart.
///
/// - A `wait=` that does not parse: 400.
/// - The client does not have the current bundle (no `If-None-Match`, or none of its tags
///   matches, weakly): 200 with the bundle.
/// - The client has it and asked to wait, and the caller can still wait: hold the request;
///   when a bundle is published, or the wait ends, decide again (the last time with
///   `mayWait: false`).
/// - The client has it: 304.
/// - No bundle yet: wait for one when asked to, 503 naming the folder's errors otherwise.
///
/// A bundle has two representations, each with its own strong tag: identity, and gzip for a
/// client whose `Accept-Encoding` takes it. "The client has it" means its `If-None-Match`
/// names the representation it would be sent, or identity, which every client can use; the
/// 304 then carries the tag it named, so a cache holding both knows which one to reuse (RFC
/// 9111 §4.3.4). A gzip tag from a client that does not accept gzip is not a match: it gets
/// identity.
/// - `/v1/css` and `/v1/css/{etag}`: the same, with the bundle's stylesheet
///   (``StyleSheetSnapshot``) in place of its JSON; `{etag}` is still the bundle's tag.
/// - `/v1/spec/{etag}`: that version's bundle (either representation, by the same rule),
///   cacheable for a year, never waiting; 404 when the state's bundle is not that version.
/// - `/v1/version?since=`: `{"etag": "…"}` (with a rollout, ``VersionSignal``'s `since` and
///   `rollout` too) when the current version is not `since`, cacheable
///   for a second; else the wait as above, ending on the grid of ``LiveryHTTP/SignalRound``,
///   then 304 naming the next round (`Livery-Round`) and cacheable for the wait's length: a
///   shared cache answers the many clients asking the same question from one request, and the
///   next round's URL is a new one (see ``LiveryHTTP/SignalRound`` for why).
package enum BundleDecision {
    /// `Cache-Control` of a version's bundle: its bytes never change.
    static let immutable = "public, max-age=31536000, immutable"
    /// `Cache-Control` of the version signal: a shared cache may answer from it for a second.
    static let signalCaching = "public, max-age=1"

    /// What to do now, or ``BundleAnswer/wait(_:)``; `now` (the clock when `nil`, read only for
    /// the version signal, so the bundle's own hot path never reads it) places a version signal's
    /// wait on its grid.
    package static func decide(
        _ query: BundleQuery, state: BundleState, mayWait: Bool, now: Date? = nil
    ) -> BundleAnswer {
        if mayWait, case .duration(let wait) = query.wait, wait > .zero, hasNothingNew(for: query, in: state) {
            if case .versionSignal(_, let round) = query.resource, case .loaded = state {
                return .wait(SignalRound.hold(wait, endingAt: round, now: now ?? Date()))
            }
            return .wait(wait)
        }
        return .respond(respond(to: query, state: state, now: now))
    }

    /// The answer once waiting is over (or was never asked for): the same rules without the wait.
    /// `now` (the clock when `nil`) names the round a version signal's 304 leads to.
    package static func respond(to query: BundleQuery, state: BundleState, now: Date? = nil) -> BundleResponse {
        if case .invalid(let text) = query.wait {
            return problem(
                Problem(
                    kind: .badWait, detail: "wait=\(text) is not a duration such as 30s, 30, 500ms or 2m"),
                query: query)
        }
        switch (query.resource, state) {
        case (.version(let tag), .loaded(let snapshot)):
            return version(tag, of: snapshot, query: query)
        case (.version(let tag), .unavailable):
            return problem(.versionNotKept(tag), query: query)
        case (.versionSignal(let since, _), .loaded(let snapshot)):
            return signal(since: since, current: snapshot, query: query, now: now ?? Date())
        case (_, .loaded(let snapshot)):
            return bundle(snapshot, query: query)
        case (_, .unavailable(let errors)):
            return problem(.noBundle(errors), query: query)
        }
    }

    /// The bundle in the representation `query` takes: 200, or 304 when the client has it.
    private static func bundle(_ snapshot: BundleSnapshot, query: BundleQuery) -> BundleResponse {
        guard let held = held(by: query, in: snapshot) else {
            let representation = selected(for: query, in: snapshot)
            return query.isHead ? representation.okToHead : representation.ok
        }
        return held.notModified
    }

    /// `/v1/spec/{etag}` (or `/v1/css/{etag}`) when a bundle is at hand: it if it is that
    /// version (by the same rules as the current bundle, cacheable for a year), else 404. The
    /// version is named by the bundle's tag in either form, so a client that learnt a version
    /// from `/v1/version` can ask for its stylesheet.
    private static func version(_ tag: String, of snapshot: BundleSnapshot, query: BundleQuery) -> BundleResponse {
        guard snapshot.identity.etag.isNamed(by: tag) else { return problem(.versionNotKept(tag), query: query) }
        let answer = bundle(snapshot, query: query)
        var fields = answer.fields
        fields[.cacheControl] = immutable
        return BundleResponse(status: answer.status, fields: fields, body: answer.body)
    }

    /// `/v1/version`: the current tag when the client's differs, else 304 (after a wait, naming
    /// the next round).
    private static func signal(
        since: String?, current snapshot: BundleSnapshot, query: BundleQuery, now: Date
    ) -> BundleResponse {
        var fields = HTTPFields()
        fields[.cacheControl] = signalCaching
        if let since, isCurrentSignal(since, in: snapshot) {
            if case .duration(let wait) = query.wait, wait > .zero {
                fields[.liveryRound] = String(SignalRound.next(after: wait, endedAt: now))
                // Still true later: whoever reads it moves on to the next round's URL, which
                // sees any change.
                fields[.cacheControl] = "public, max-age=\(max(1, wait.components.seconds))"
            }
            return BundleResponse(status: .notModified, fields: fields, body: nil)
        }
        let body = snapshot.versionSignal
        fields[.contentType] = "application/json"
        fields[.contentLength] = String(body.readableBytes)
        return BundleResponse(status: .ok, fields: fields, body: query.isHead ? nil : body)
    }

    /// Whether waiting could bring the client something: it has the current bundle, or there
    /// is none yet.
    private static func hasNothingNew(for query: BundleQuery, in state: BundleState) -> Bool {
        switch (query.resource, state) {
        case (.version, _): false
        case (.versionSignal(let since, _), .loaded(let snapshot)):
            since.map { isCurrentSignal($0, in: snapshot) } == true
        case (.current, .loaded(let snapshot)): held(by: query, in: snapshot) != nil
        case (_, .unavailable): true
        }
    }

    /// Whether `since` names what the version signal says now: the bundle's tag, or with a
    /// rollout in the signal, the rollout's ``LiveryHTTP/Rollout/signalTag``.
    private static func isCurrentSignal(_ since: String, in snapshot: BundleSnapshot) -> Bool {
        guard let rollout = snapshot.rollout else { return snapshot.etag.isNamed(by: since) }
        return since == rollout.signalTag
    }

    /// The identity and gzip representations of the form `query` asks for.
    private static func representations(
        for query: BundleQuery, in snapshot: BundleSnapshot
    ) -> (identity: BundleRepresentation, gzip: BundleRepresentation?) {
        switch query.form {
        case .bundle: (snapshot.identity, snapshot.gzip)
        case .styleSheet: (snapshot.styleSheet.identity, snapshot.styleSheet.gzip)
        }
    }

    /// The representation `query` is sent: gzip if it accepts it (and there is one).
    private static func selected(for query: BundleQuery, in snapshot: BundleSnapshot) -> BundleRepresentation {
        let form = representations(for: query, in: snapshot)
        guard query.acceptsGzip, let gzip = form.gzip else { return form.identity }
        return gzip
    }

    /// The representation of the current bundle the client already has and can use, if any.
    private static func held(by query: BundleQuery, in snapshot: BundleSnapshot) -> BundleRepresentation? {
        guard let condition = query.condition else { return nil }
        let selected = selected(for: query, in: snapshot)
        let identity = representations(for: query, in: snapshot).identity
        if condition.matchesWeakly(selected.etag) { return selected }
        if condition.matchesWeakly(identity.etag) { return identity }
        return nil
    }

    /// A problem document as an answer, with the fields `Problem.response` gives it.
    private static func problem(_ problem: Problem, query: BundleQuery) -> BundleResponse {
        var fields = problem.fields
        let body = JSONBody.encode(problem)
        fields[.contentLength] = String(body.readableBytes)
        return BundleResponse(status: problem.status, fields: fields, body: query.isHead ? nil : body)
    }
}

/// What ``BundleDecision`` says to do with a request for the bundle.
package enum BundleAnswer: Sendable {
    /// Send this now.
    case respond(BundleResponse)
    /// Hold the request for at most this long (before jitter), until the bundle changes.
    case wait(Duration)
}
