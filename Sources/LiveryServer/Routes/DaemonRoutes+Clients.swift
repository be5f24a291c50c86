import Hummingbird

extension DaemonRoutes {
    /// `GET /v1/clients`: the fleet as the clients' `Livery-Client` headers describe it.
    func clientsStatus() -> Response {
        JSONBody.response(fleetStatus(), headers: [.cacheControl: "no-store"])
    }

    /// The fleet now, with the fleet gauges set to it.
    func fleetStatus() -> FleetStatus {
        let status = FleetStatus(
            entries: clients.entries(), current: hub.snapshot?.etag, malformedHeaders: clients.malformedHeaders)
        metrics.fleetClients.set(Double(status.clients))
        metrics.fleetClientsNotConverged.set(Double(status.clients - status.converged))
        return status
    }
}
