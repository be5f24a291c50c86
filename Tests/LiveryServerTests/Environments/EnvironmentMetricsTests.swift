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
