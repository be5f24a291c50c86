import Hummingbird

extension DaemonRoutes {
    /// `GET /v1/spec`: the bundle, conditional on `If-None-Match`, optionally long-polling with
    /// `?wait=`.
    ///
    /// A long-poll holds the request only while the client already has the current bundle
    /// (its `If-None-Match` matches); it ends with 200 and the new bundle as soon as one is
    /// published, or with 304 when the wait (±10 % jitter) runs out or the daemon shuts down.
    ///
    /// Most of these requests never get here: `RawBundleHandler` and `BundleRequestHandler`
    /// answer them ahead of the router by the same rules. This route answers the rest: no bundle
    /// loaded yet, a `wait=` that does not parse, and requests pipelined behind one the router is
    /// still answering. A change of the rules goes into both places (`BundleFastPathTests` and
    /// `LongPollTests` exercise each).
    func bundle(_ request: Request) async throws -> Response {
        let condition = EntityTagCondition(headerValues: request.headers[values: .ifNoneMatch])
        var wait: Duration?
        if let text = request.uri.queryParameters["wait"] {
            guard let parsed = WaitDuration.parse(text) else {
                return Problem(
                    kind: "bad-wait", title: "Bad wait", status: .badRequest,
                    detail: "wait=\(text) is not a duration such as 30s, 30, 500ms or 2m"
                ).response()
            }
            wait = parsed
        }
        let current = hub.snapshot
        if let current, condition?.matchesWeakly(current.etag) != true {
            return bundleResponse(current)
        }
        guard let wait, wait > .zero, let (subscription, now) = hub.subscribe() else {
            return finalResponse(condition)
        }
        defer { subscription.cancel() }
        // Read again at subscription time: a bundle published in between must not be missed.
        if let now, condition?.matchesWeakly(now.etag) != true {
            return bundleResponse(now)
        }
        let deadline = ContinuousClock.now + WaitDuration.jittered(wait)
        waiting: while ContinuousClock.now < deadline {
            switch await subscription.next(timeout: deadline - .now) {
            case .bundle(let snapshot) where condition?.matchesWeakly(snapshot.etag) != true:
                return bundleResponse(snapshot)
            case .bundle:
                continue
            case .timedOut, .closed:
                break waiting
            }
        }
        return finalResponse(condition)
    }

    /// The answer when nothing new arrived: 304 for a client that has the current bundle, the
    /// bundle otherwise, 503 if there is none.
    private func finalResponse(_ condition: EntityTagCondition?) -> Response {
        guard let snapshot = hub.snapshot else { return unavailable() }
        guard condition?.matchesWeakly(snapshot.etag) == true else { return bundleResponse(snapshot) }
        return Response(status: .notModified, headers: snapshot.notModifiedFields)
    }

    private func bundleResponse(_ snapshot: BundleSnapshot) -> Response {
        Response(status: .ok, headers: snapshot.bundleFields, body: .init(byteBuffer: snapshot.bytes))
    }
}
