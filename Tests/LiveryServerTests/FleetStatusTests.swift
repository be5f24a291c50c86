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
            #expect(metrics.contains(#"livery_fleet_clients{environment="default"} 3"#))
            #expect(metrics.contains(#"livery_fleet_clients_not_converged{environment="default"} 2"#))
            #expect(metrics.contains(#"livery_malformed_client_headers_total{environment="default"} 1"#))
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
        let table = ClientTable(
            capacity: 2, lifetime: .seconds(60),
            metrics: EnvironmentMetrics(environment: "default", server: ServerMetrics()))
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

    @Test func theSkippedIdentifiersAreBoundedOverTheWholeTable() throws {
        let table = ClientTable(
            capacity: 100, skippedCapacity: 5, lifetime: .seconds(60),
            metrics: EnvironmentMetrics(environment: "default", server: ServerMetrics()))
        let start = Date()
        table.record([try header("a", applied: nil, skipped: ["a1", "a2", "a3"]).1], at: start)
        table.record([try header("b", applied: nil, skipped: ["b1", "b2"]).1], at: start.addingTimeInterval(1))
        #expect(table.entries(at: start.addingTimeInterval(2)).count == 2)
        // One more identifier than the budget holds: the least recently seen client goes.
        table.record([try header("c", applied: nil, skipped: ["c1"]).1], at: start.addingTimeInterval(2))
        #expect(table.entries(at: start.addingTimeInterval(3)).map(\.header.identity.instance) == ["c", "b"])
        let status = table.status(current: nil, at: start.addingTimeInterval(3))
        #expect(status.evicted == 1)
        #expect(!status.complete, "a client was dropped for room: the table cannot vouch for convergence")
        #expect(Set(status.skipped.map(\.identifier)) == ["b1", "b2", "c1"])
        // A client listing more than the whole budget keeps what fits, counted in `more`.
        table.record(
            [try header("d", applied: nil, skipped: ["1", "2", "3", "4", "5", "6"]).1], at: start.addingTimeInterval(4))
        let d = try #require(table.entries(at: start.addingTimeInterval(4)).first)
        #expect(d.header.skipped == ["1", "2", "3", "4", "5"])
        #expect(d.header.moreSkipped == 1)
        #expect(
            table.status(current: nil, at: start.addingTimeInterval(400)).complete, "evictions older than the lifetime")
    }

    @Test func aLaterReportOfAnInstanceReplacesTheEarlierOne() throws {
        let table = ClientTable(
            capacity: 10, lifetime: .seconds(60),
            metrics: EnvironmentMetrics(environment: "default", server: ServerMetrics()))
        let current = EntityTag(of: "current".utf8)
        let start = Date()
        table.record([try header("victim", applied: "\"old\"").1], at: start)
        // A forged report that the lagging instance converged counts only until its next request.
        table.record([try header("victim", applied: current.description).1], at: start.addingTimeInterval(1))
        #expect(table.status(current: current, at: start.addingTimeInterval(1)).converged == 1)
        table.record([try header("victim", applied: "\"old\"").1], at: start.addingTimeInterval(2))
        let status = table.status(current: current, at: start.addingTimeInterval(2))
        #expect(status.clients == 1)
        #expect(status.converged == 0)
        #expect(status.notConverged.map(\.instance) == ["victim"])
    }

    @Test func aClientPollingOftenLeavesNoTrailBehind() throws {
        let table = ClientTable(
            capacity: 10, lifetime: .seconds(60),
            metrics: EnvironmentMetrics(environment: "default", server: ServerMetrics()))
        let start = Date()
        table.record([try header("quiet", applied: nil).1], at: start)
        for step in 1...10_000 {
            table.record([try header("busy", applied: nil).1], at: start.addingTimeInterval(Double(step) / 1000))
        }
        #expect(table.entries(at: start.addingTimeInterval(11)).map(\.header.identity.instance) == ["busy", "quiet"])
        #expect(table.entries(at: start.addingTimeInterval(65)).map(\.header.identity.instance) == ["busy"])
        #expect(table.placesHeld <= 2 * 2 + 64, "stale places are dropped once they outnumber live ones")
    }

    @Test func theListsAreCutAndCounted() throws {
        let table = ClientTable(metrics: EnvironmentMetrics(environment: "default", server: ServerMetrics()))
        let start = Date()
        for index in 0..<300 {
            table.record(
                [try header("i\(index)", applied: "\"v\(index % 30)\"", skipped: ["s\(index)"]).1],
                at: start.addingTimeInterval(Double(index) / 1000))
        }
        let status = table.status(current: nil, at: start.addingTimeInterval(1))
        #expect(status.clients == 300)
        #expect(status.versions.count == FleetStatus.maxListedVersions)
        #expect(status.unlistedVersions == 30 - FleetStatus.maxListedVersions)
        #expect(status.notConverged.count == FleetStatus.maxListedClients)
        #expect(status.notConverged.first?.instance == "i299", "most recently seen first")
        #expect(status.unlistedNotConverged == 300 - FleetStatus.maxListedClients)
        #expect(status.skipped.count == FleetStatus.maxListedSkipped)
        #expect(status.unlistedSkipped == 300 - FleetStatus.maxListedSkipped)
        #expect(status.complete)
    }
}
