import Foundation
import LiveryServer
import LiveryTesting
import Testing

/// A bad file on disk is reported while the last good bundle stays served; health and metrics.
@Suite(.timeLimit(.minutes(1))) struct StatusTests {
    @Test func aBadFileOnDiskIsReportedAndTheLastGoodBundleServed() async throws {
        try await TestDaemon.with { server in
            let good = try await server.http.get("/v1/spec")
            try server.folder.write("broken.yaml", "specs:\n  x:\n    - { type: Sparkle }\n")
            #expect(
                try await TestDaemon.eventually {
                    try await server.http.get("/v1/status").json()["lastError"] != nil
                })
            let status = try await server.http.get("/v1/status").json()
            let error = try #require(status["lastError"] as? [String: Any])
            #expect(error["file"] as? String == "broken.yaml")
            #expect(error["line"] as? Int == 3)
            #expect(error["column"] as? Int == 15)
            #expect(error["code"] as? String == "unknownTrait")
            #expect(error["message"] as? String == "unknown trait type 'Sparkle'")
            #expect(status["etag"] as? String == good.header("ETag"))

            let still = try await server.http.get("/v1/spec")
            #expect(still.status == 200)
            #expect(still.body == good.body)
            let health = try await server.http.get("/healthz")
            #expect(health.status == 200)
            let healthJSON = try health.json()
            #expect(healthJSON["status"] as? String == "ok")
            #expect(healthJSON["etag"] as? String == good.header("ETag"))
            #expect((healthJSON["lastError"] as? [String: Any])?["file"] as? String == "broken.yaml")

            try server.folder.remove("broken.yaml")
            #expect(
                try await TestDaemon.eventually {
                    try await server.http.get("/healthz").json()["lastError"] == nil
                })
        }
    }

    @Test func metricsCountReloadsPushesRejectionsAndRequests() async throws {
        try await TestDaemon.with { server in
            _ = try await server.http.get("/v1/spec")
            #expect(try await server.http.put("/v1/specs/more.yaml", "specs: {}\n").status == 201)
            #expect(try await server.http.put("/v1/specs/bad.yaml", "specs: [").status == 422)
            #expect(
                try await TestDaemon.eventually {
                    try await server.http.get("/metrics").text.contains(
                        #"livery_reloads_total{environment="default"} 2"#)
                })
            let reply = try await server.http.get("/metrics")
            #expect(reply.status == 200)
            #expect(reply.header("Content-Type")?.hasPrefix("text/plain") == true)
            let text = reply.text
            for line in [
                #"livery_pushes_total{environment="default"} 1"#,
                #"livery_rejected_specs_total{environment="default",source="push"} 1"#,
                #"livery_rejected_specs_total{environment="default",source="disk"} 0"#,
                #"livery_waiting_clients{environment="default"} 0"#,
                #"livery_http_requests_total{environment="default",route="/v1/spec",method="GET",status="200"} 1"#,
                #"livery_http_requests_total{environment="default",route="/v1/specs/**",method="PUT",status="422"} 1"#,
            ] {
                #expect(text.contains(line), "\(line)")
            }
            #expect(text.contains(#"livery_bundle_bytes{environment="default"} "#))
            #expect(text.contains("livery_http_request_duration_seconds_bucket{"))
        }
    }
}
