import Foundation
import LiveryServer
import LiveryTesting
import Testing

/// `GET /metrics` and `GET …/status` on a folder of environments: every series about a spec set
/// names its environment.
@Suite(.timeLimit(.minutes(2))) struct EnvironmentMetricsTests {
    @Test func aPushToStagingIsCountedForStagingAlone() async throws {
        let root = try EnvironmentFolderTests.root()
        try await EnvironmentFolderTests.withEnvironments(root) { server in
            #expect(
                try await server.http.put("/v1/environments/staging/specs/more.yaml", "specs: {}\n").status == 201)
            #expect(
                try await server.http.put("/v1/environments/staging/specs/bad.yaml", "specs: [").status == 422)
            #expect(
                try await TestDaemon.eventually {
                    try await server.http.get("/metrics").text.contains(
                        #"livery_reloads_total{environment="staging"} 2"#)
                })
            let text = try await server.http.get("/metrics").text
            for line in [
                #"livery_pushes_total{environment="staging"} 1"#,
                #"livery_pushes_total{environment="production"} 0"#,
                #"livery_reloads_total{environment="production"} 1"#,
                #"livery_rejected_specs_total{environment="staging",source="push"} 1"#,
                #"livery_rejected_specs_total{environment="production",source="push"} 0"#,
                #"livery_waiting_clients{environment="production"} 0"#,
                #"livery_fleet_clients{environment="staging"} 0"#,
                #"livery_rollout_aborts_total{environment="production",by="operator"} 0"#,
            ] {
                #expect(text.contains(line), "\(line)")
            }
            #expect(text.contains(#"livery_bundle_bytes{environment="staging"} "#))
            let status = try await server.http.get("/v1/environments/staging/status").json()
            #expect(status["environment"] as? String == "staging")
        }
    }

    @Test func requestsAreCountedUnderTheEnvironmentTheyAddress() async throws {
        let root = try EnvironmentFolderTests.root()
        try await EnvironmentFolderTests.withEnvironments(root, configure: { $0.defaultEnvironment = "production" }) {
            server in
            #expect(try await server.http.get("/v1/spec").status == 200)
            #expect(try await server.http.get("/v1/history").status == 200)
            #expect(try await server.http.get("/v1/environments/staging/spec").status == 200)
            #expect(try await server.http.get("/v1/environments/staging/history").status == 200)
            #expect(try await server.http.get("/v1/environments").status == 200)
            // Unknown names, as a scanner sends them: answered, counted, and never a series of their own.
            #expect(try await server.http.get("/v1/environments/nope-1/spec").status == 404)
            #expect(try await server.http.get("/v1/environments/nope-2/history").status == 404)
            let lines = try await server.http.get("/metrics").text.split(separator: "\n").filter {
                $0.hasPrefix("livery_http_requests_total{")
            }
            func count(_ labels: String) -> Int? {
                lines.first { $0.hasPrefix("livery_http_requests_total{\(labels)}") }
                    .flatMap { $0.split(separator: " ").last.flatMap { Int($0) } }
            }
            #expect(count(#"environment="production",route="/v1/spec",method="GET",status="200""#) == 1, "\(lines)")
            #expect(count(#"environment="production",route="/v1/history",method="GET",status="200""#) == 1)
            let staging = lines.filter { $0.contains(#"environment="staging""#) }
            #expect(staging.count == 2, "\(staging)")
            #expect(staging.allSatisfy { $0.contains(#"status="200""#) && $0.hasSuffix(" 1") })
            #expect(count(#"environment="",route="/v1/environments",method="GET",status="200""#) == 1)
            let unknown = lines.filter { $0.contains(#"status="404""#) }
            #expect(unknown.count == 2 && unknown.allSatisfy { $0.contains(#"environment="""#) }, "\(unknown)")
            #expect(!lines.contains { $0.contains("nope") })
        }
    }

    @Test func aPromotionIsCountedAsAPushOnItsTarget() async throws {
        let root = try EnvironmentFolderTests.root()
        try await EnvironmentFolderTests.withEnvironments(root) { server in
            let promoted = try await server.http.post(
                "/v1/environments/production/promotions", json: #"{"from": "staging"}"#)
            #expect(promoted.status == 200, "\(promoted.text)")
            let text = try await server.http.get("/metrics").text
            #expect(text.contains(#"livery_pushes_total{environment="production"} 1"#))
            #expect(text.contains(#"livery_pushes_total{environment="staging"} 0"#))
        }
    }
}
