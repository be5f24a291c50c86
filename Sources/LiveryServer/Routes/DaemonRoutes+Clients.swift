import Hummingbird

extension DaemonRoutes {
    /// `GET /v1/clients`: the fleet as the clients' `Livery-Client` headers describe it, at most
    /// ``FleetStatus/maxBytes`` of JSON.
    func clientsStatus() -> Response {
        var status = fleetStatus()
        var body = JSONBody.encode(status)
        while body.readableBytes > FleetStatus.maxBytes, status.listFewerClients() {
            body = JSONBody.encode(status)
        }
        return Response(
            status: .ok, headers: [.contentType: "application/json", .cacheControl: "no-store"],
            body: .init(byteBuffer: body))
    }

    /// The fleet now, with the fleet gauges set to it.
    func fleetStatus() -> FleetStatus {
        clients.status(current: hub.snapshot?.etag)
    }
}
