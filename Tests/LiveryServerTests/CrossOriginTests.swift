import Foundation
import LiveryHTTP
import LiveryServer
import LiveryTesting
import Testing

/// `--allow-origin` on a real daemon: every path that answers a read route (the raw path, the
/// event-loop handler, the router) sends the policy's fields; writes never do.
@Suite(.timeLimit(.minutes(1))) struct CrossOriginTests {
    static let page = "http://127.0.0.1:8000"

    static func request(_ target: String, _ fields: String = "", method: String = "GET") -> String {
        "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n\(fields)Connection: close\r\n\r\n"
    }

    static func allowing(_ configuration: inout DaemonConfiguration) {
        configuration.allowedOrigins = try! CrossOriginPolicy(allowing: [page])  // a valid origin
    }

    @Test(arguments: ["/v1/css", "/v1/spec", "/v1/version", "/v1/livery.js", "/v1/livery-tuf.js", "/v1/css?wait=0s"])
    func readRoutesAnswerTheAllowedOrigin(target: String) async throws {
        try await TestDaemon.with(configure: Self.allowing) { server in
            let allowed = try await RawResponse.exchange(
                Self.request(target, "Origin: \(Self.page)\r\n"), port: server.port)
            #expect(allowed.field("Access-Control-Allow-Origin") == Self.page, "\(allowed)")
            #expect(allowed.field("Vary")?.contains("Origin") == true, "\(allowed)")
            let foreign = try await RawResponse.exchange(
                Self.request(target, "Origin: http://evil.example\r\n"), port: server.port)
            #expect(foreign.field("Access-Control-Allow-Origin") == nil)
            // A plain request, which the raw path would answer: it must say it varies by Origin.
            let plain = try await RawResponse.exchange(Self.request(target), port: server.port)
            #expect(plain.field("Vary")?.contains("Origin") == true, "\(plain)")
        }
    }

    @Test func theEventStreamAnswersTheAllowedOrigin() async throws {
        try await TestDaemon.with(configure: Self.allowing) { server in
            let connection = try RawConnection(port: server.port)
            try await connection.send(
                "GET /v1/events HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: \(Self.page)\r\n\r\n")
            let head = try await connection.receive(until: "\r\n\r\n", timeout: .seconds(5))
            #expect(head.contains("Access-Control-Allow-Origin: \(Self.page)\r\n"), "\(head)")
        }
    }

    @Test func aPreflightForTheReportingHeaderIsGrantedOnReadRoutesOnly() async throws {
        try await TestDaemon.with(configure: Self.allowing) { server in
            let preflight =
                "Origin: \(Self.page)\r\nAccess-Control-Request-Method: GET\r\nAccess-Control-Request-Headers: livery-client\r\n"
            let granted = try await RawResponse.exchange(
                Self.request("/v1/version", preflight, method: "OPTIONS"), port: server.port)
            #expect(granted.status == 204)
            #expect(granted.field("Access-Control-Allow-Origin") == Self.page)
            #expect(granted.field("Access-Control-Allow-Headers") == "Livery-Client, Authorization, Last-Event-ID")
            let write =
                "Origin: \(Self.page)\r\nAccess-Control-Request-Method: PUT\r\nAccess-Control-Request-Headers: authorization\r\n"
            let refused = try await RawResponse.exchange(
                Self.request("/v1/specs/card.yaml", write, method: "OPTIONS"), port: server.port)
            #expect(refused.field("Access-Control-Allow-Origin") == nil, "\(refused)")
        }
    }

    @Test func writeRoutesNeverAnswerAnotherOrigin() async throws {
        try await TestDaemon.with(configure: { $0.allowedOrigins = try! CrossOriginPolicy(allowing: ["*"]) }) {
            server in
            let body = #"{"files": {"x.yaml": "specs: {}\n"}, "message": "m"}"#
            let answer = try await RawResponse.exchange(
                "POST /v1/specs HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: \(Self.page)\r\n"
                    + "Authorization: Bearer \(TestDaemon.token)\r\nContent-Type: application/json\r\n"
                    + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)", port: server.port)
            #expect(answer.status == 200, "\(answer)")
            #expect(answer.field("Access-Control-Allow-Origin") == nil)
        }
    }

    @Test func withoutTheOptionNoAnswerHasACORSField() async throws {
        try await TestDaemon.with { server in
            for target in ["/v1/css", "/v1/spec", "/v1/livery.js"] {
                let answer = try await RawResponse.exchange(
                    Self.request(target, "Origin: \(Self.page)\r\n"), port: server.port)
                #expect(answer.field("Access-Control-Allow-Origin") == nil)
                #expect(answer.field("Vary")?.contains("Origin") != true)
            }
        }
    }
}
