import Hummingbird

extension DaemonRoutes {
    /// `GET` and `HEAD /v1/spec`, `/v1/spec/{etag}` and `/v1/version` through the router, answered by ``BundleDecision`` without
    /// waiting.
    ///
    /// `BundleRequestHandler` (and for plain GETs `RawBundleHandler`) answers every request
    /// for the bundle on the event loop, long-polls included; the router sees one only when its
    /// head is over the daemon's limits, which `RequestLimitsMiddleware` answers first. The
    /// route stays so that the path is known to the router (405 for other methods) and so that a
    /// request that does reach it gets the same answer, at worst without the wait.
    func bundle(_ request: Request) -> Response {
        guard let query = BundleQuery(request.head) else { return Response(status: .notFound) }
        let state = places.shown(hub.bundleState(for: query), disclosing: disclosesPlaces(to: request))
        return BundleDecision.respond(to: query, state: state).response
    }
}

extension BundleHub {
    /// The current bundle, or the errors that keep the folder from loading.
    var bundleState: BundleState {
        snapshot.map(BundleState.loaded) ?? .unavailable(errors)
    }

    /// What ``BundleDecision`` decides `query` from: for a version, the bundle kept of it.
    func bundleState(for query: BundleQuery) -> BundleState {
        guard case .version(let tag) = query.resource, let kept = snapshot(version: tag) else { return bundleState }
        return .loaded(kept)
    }
}
