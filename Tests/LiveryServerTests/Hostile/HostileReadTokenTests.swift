import Foundation
import LiveryServer
import Logging
import Testing

/// `--read-token-file`: every route of the daemon's own route table but the open ones refuses a
/// request without the token (401 with `WWW-Authenticate`), the raw path's plain GET included,
/// and answers it with the read token or the push token. A route added to the table is covered
/// without touching this test.
@Suite(.timeLimit(.minutes(2))) struct HostileReadTokenTests {
    /// The daemon's route table, from an assembled (never started) daemon that serves the studio.
    static var routeTable: [DaemonRoute] {
        get throws {
            let configuration = DaemonConfiguration(directory: URL(filePath: "/nonexistent"), studio: true)
            let logger = Logger(label: "livery.test") { _ in SwiftLogNoOpLogHandler() }
            return LiveryDaemon(configuration: configuration, token: try BearerToken("x"), logger: logger).routeTable
        }
    }

    /// A request target for a route pattern: each parameter filled with a value the daemon routes.
    static func target(for route: DaemonRoute) -> String {
        route.path
            .replacingOccurrences(of: "/studio/**", with: "/studio/index.html")
            .replacingOccurrences(of: "**", with: "card.yaml")
            .replacingOccurrences(of: "{etag}", with: "0000000000000000")
            .replacingOccurrences(of: "{revision}", with: "1")
            .replacingOccurrences(of: "{environment}", with: "default")
    }

    @Test func everyReadRouteNeedsTheTokenAndTheOpenOnesDoNot() async throws {
        let table = try Self.routeTable
        #expect(table.contains { $0.path == "/v1/spec" } && table.contains { $0.path == "/studio/**" })
        let serve = try await ServeProcess(["--studio"], readToken: true)
        for route in table where !route.writes {
            let target = Self.target(for: route)
            for method in ["GET", "HEAD"] {
                // The raw path's shape exactly: no Connection field, so the plain GET is read raw.
                let bare = try await Self.exchange(method, target, authorization: nil, port: serve.port)
                let withRead = try await Self.exchange(
                    method, target, authorization: ServeProcess.readToken, port: serve.port)
                let withPush = try await Self.exchange(
                    method, target, authorization: ServeProcess.token, port: serve.port)
                let wrong = try await Self.exchange(method, target, authorization: "guess", port: serve.port)
                if route.isOpen {
                    #expect(bare.status != 401, "\(method) \(target) is open: \(bare)")
                } else {
                    #expect(bare.status == 401, "\(method) \(target) without the token: \(bare)")
                    #expect(bare.field("WWW-Authenticate") == #"Bearer realm="livery""#, "\(method) \(target)")
                    #expect(wrong.status == 401, "\(method) \(target) with a wrong token: \(wrong)")
                    #expect(bare.body.count < 400 && !String(decoding: bare.body, as: UTF8.self).contains("card"))
                }
                #expect(withRead.status != 401, "\(method) \(target) with the read token: \(withRead)")
                #expect(withPush.status != 401, "\(method) \(target) with the push token: \(withPush)")
            }
        }
        // Writes still need the push token: the read token is not enough.
        for route in table where route.writes {
            let answer = try await Self.exchange(
                route.method, Self.target(for: route), authorization: ServeProcess.readToken, port: serve.port)
            #expect(answer.status == 401, "\(route.method) \(route.path) with the read token: \(answer)")
        }
        #expect(try await serve.stop() == 0)
    }

    @Test func onlyClientsThatPresentTheTokenAreCountedInTheFleet() async throws {
        let serve = try await ServeProcess(readToken: true)
        let forged = LiveryClientHeader(identity: try ClientIdentity(name: "forged", instance: "f1"), applied: "x")
            .fieldValue
        let genuine = LiveryClientHeader(identity: try ClientIdentity(name: "genuine", instance: "g1"), applied: "x")
            .fieldValue
        #expect(try await serve.http.get("/healthz", headers: [("Livery-Client", forged)]).status == 200)
        #expect(
            try await serve.http.get(
                "/v1/spec",
                headers: [("Livery-Client", genuine), ("Authorization", "Bearer \(ServeProcess.readToken)")]
            ).status == 200)
        let fleet = try await serve.http.get(
            "/v1/clients", headers: [("Authorization", "Bearer \(ServeProcess.readToken)")])
        #expect(fleet.text.contains("genuine") && !fleet.text.contains("forged"), "\(fleet.text)")
        #expect(try await serve.stop() == 0)
    }

    /// One request on a new connection; `HEAD` and `GET` alike read until the server closes.
    static func exchange(
        _ method: String, _ target: String, authorization: String?, port: Int
    ) async throws
        -> RawResponse
    {
        let connection = try RawConnection(port: port)
        let token = authorization.map { "Authorization: Bearer \($0)\r\n" } ?? ""
        let body = method == "GET" || method == "HEAD" ? "" : "Content-Length: 0\r\n"
        try await connection.send("\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n\(token)\(body)\r\n")
        // An event stream never ends: its head is enough.
        let text = try await connection.receive(until: "\r\n\r\n", timeout: .seconds(10))
        return try RawResponse(text)
    }
}
