import Foundation
import Testing

@testable import LiveryServer

/// `GET /v1/clients`: the fleet as the clients' `Livery-Client` headers describe it.
@Suite(.timeLimit(.minutes(1))) struct FleetStatusTests {
    private func header(_ instance: String, applied: String?, skipped: [String] = []) throws -> (String, String) {
        let identity = try ClientIdentity(name: "shop-web", instance: instance, appVersion: "2.4.1")
        return ("Livery-Client", LiveryClientHeader(identity: identity, applied: applied, skipped: skipped).fieldValue)
    }

    @Test func theFleetShowsWhoIsOnWhichVersionAndWhoLags() async throws {
        try await TestDaemon.with { server in
            let current = try #require(try await server.http.get("/v1/spec").header("ETag"))
            let old = "\"00000000deadbeef\""
            // A plain poll (the daemon's raw path), a long-poll and a route of the router.
            #expect(try await server.http.get("/v1/spec", headers: [try header("a", applied: current)]).status == 200)
            let waited = try await server.http.get(
                "/v1/spec?wait=100ms",
                headers: [try header("b", applied: old, skipped: ["promo.banner"]), ("If-None-Match", current)])
            #expect(waited.status == 304)
            #expect(try await server.http.get("/healthz", headers: [try header("c", applied: nil)]).status == 200)
            let malformed = try await server.http.get("/v1/spec", headers: [("Livery-Client", "name=\"x\", instance=")])
            #expect(malformed.status == 200, "a malformed header never fails its request")

            let reply = try await server.http.get("/v1/clients")
            #expect(reply.status == 200)
            let fleet = try JSONDecoder().decode(FleetStatus.self, from: reply.body)
            #expect(fleet.current == current)
            #expect(fleet.clients == 3)
            #expect(fleet.converged == 1)
            #expect(fleet.versions.first { $0.etag == current } == .init(etag: current, clients: 1, isCurrent: true))
            #expect(fleet.versions.first { $0.etag == old } == .init(etag: old, clients: 1, isCurrent: false))
            #expect(Set(fleet.notConverged.map(\.instance)) == ["b", "c"])
            #expect(fleet.skipped == [.init(identifier: "promo.banner", clients: 1)])
            #expect(fleet.malformedHeaders == 1)

            let metrics = try await server.http.get("/metrics").text
            #expect(metrics.contains("livery_fleet_clients 3"))
            #expect(metrics.contains("livery_fleet_clients_not_converged 2"))
            #expect(metrics.contains("livery_malformed_client_headers_total 1"))
        }
    }

    @Test func aClientThatAppliesTheCurrentVersionConverges() async throws {
        try await TestDaemon.with { server in
            let current = try #require(try await server.http.get("/v1/spec").header("ETag"))
            _ = try await server.http.get("/v1/version", headers: [try header("a", applied: nil)])
            var fleet = try JSONDecoder().decode(FleetStatus.self, from: try await server.http.get("/v1/clients").body)
            #expect(fleet.converged == 0)
            _ = try await server.http.get("/v1/version", headers: [try header("a", applied: current)])
            fleet = try JSONDecoder().decode(FleetStatus.self, from: try await server.http.get("/v1/clients").body)
            #expect(fleet.clients == 1)
            #expect(fleet.converged == 1)
            #expect(fleet.notConverged.isEmpty)
        }
    }

    @Test func liveryStatusPrintsTheFleet() async throws {
        try await TestDaemon.with { server in
            let current = try #require(try await server.http.get("/v1/spec").header("ETag"))
            _ = try await server.http.get("/v1/version", headers: [try header("a", applied: current)])
            _ = try await server.http.get(
                "/v1/version", headers: [try header("b", applied: nil, skipped: ["card.badge"])])
            let status = try await Subprocess.run(["status", "--server", server.base])
            #expect(status.status == 0, "\(status.stderr)")
            #expect(status.stdout.contains("current \(current): 1 of 2 clients converged"), "\(status.stdout)")
            #expect(status.stdout.contains("shop-web b 2.4.1  applied nothing"), "\(status.stdout)")
            #expect(status.stdout.contains("card.badge  1"), "\(status.stdout)")
        }
    }

    @Test func theTableIsBoundedAndForgets() throws {
        let table = ClientTable(capacity: 2, lifetime: .seconds(60), metrics: ServerMetrics())
        let start = Date()
        for (index, instance) in ["a", "b", "c"].enumerated() {
            table.record([try header(instance, applied: nil).1], at: start.addingTimeInterval(Double(index)))
        }
        #expect(Set(table.entries(at: start.addingTimeInterval(3)).map(\.header.identity.instance)) == ["b", "c"])
        #expect(table.entries(at: start.addingTimeInterval(62)).map(\.header.identity.instance) == ["c"])
        #expect(table.entries(at: start.addingTimeInterval(120)).isEmpty)
        table.record(["not a dictionary ("])
        #expect(table.malformedHeaders == 1)
    }
}
