import Hummingbird

extension DaemonRoutes {
    /// The longest body `POST /v1/reports` reads: it has no meaning there, and a client that
    /// sends one is told so.
    static let maxReportBodyBytes = 2

    /// `POST /v1/reports`: a client reporting a refusal or a problem at once, in its
    /// `Livery-Client` header, which the connection's ``BundleRequestHandler`` has already
    /// recorded (with the read-token rule) as for every request. Why a route of its own: the
    /// version signal and the versions are cached and coalesced by a front such as the shipped
    /// nginx one, which passes the daemon one client's header per round, so a cohort's
    /// refusals would mostly never arrive; a `POST` is never cached.
    func report(_ request: Request) async throws(Problem) -> Response {
        _ = try await Self.collectBody(request, limit: Self.maxReportBodyBytes)
        return Response(status: .noContent, headers: [.cacheControl: "no-store"])
    }
}
