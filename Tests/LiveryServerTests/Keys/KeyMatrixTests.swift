import Foundation
import LiveryServer
import LiveryTesting
import NIOHTTP1
import Testing

/// Every route of the daemon's own route table against every kind of caller: no key, a key the
/// daemon does not know, a key without the route's scope, a key with it on another environment,
/// and the right key. A route added to the table is covered without touching this test.
@Suite(.timeLimit(.minutes(3))) struct KeyMatrixTests {
    @Test func everyRouteAnswers401And403ByItsScope() async throws {
        let state = try TemporarySpecFolder(prefix: "livery-keys-state")
        try await TestDaemon.with(configure: {
            $0.requireReadKey = true
            $0.stateDirectory = state.url
            $0.studio = true
        }) { server in
            let table = server.daemon.routeTable
            #expect(table.contains { $0.scope == .admin } && table.contains { $0.scope == nil })
            var right: [KeyScope: String] = [:]
            var elsewhere: [KeyScope: String] = [:]
            for scope in KeyScope.allCases {
                right[scope] = try await server.addKey(
                    "\(scope.rawValue)-here", scopes: [scope.rawValue], environments: ["default"])
                elsewhere[scope] = try await server.addKey(
                    "\(scope.rawValue)-there", scopes: [scope.rawValue], environments: ["staging"])
            }
            for route in table {
                let target = TestDaemon.target(for: route)
                let call = "\(route.method) \(target)"
                // Refusals end, so a plain client reads them whole; an allowed call may be an event
                // stream, whose head alone is read raw.
                func refusal(_ key: String?) async throws -> HTTP.Reply {
                    try await server.http.send(
                        HTTPMethod(rawValue: route.method), target,
                        headers: key.map { [("Authorization", "Bearer \($0)")] } ?? [])
                }
                func allowed(_ key: String?) async throws -> RawResponse {
                    try await HostileReadTokenTests.exchange(
                        route.method, target, authorization: key, port: server.port)
                }
                guard let scope = route.scope else {
                    let open = try await allowed(nil)
                    #expect(open.status != 403, "\(call) is open: \(open)")
                    continue
                }
                let bare = try await refusal(nil)
                #expect(bare.status == 401, "\(call) without a key: \(bare.status) \(bare.text)")
                #expect(bare.header("WWW-Authenticate") == #"Bearer realm="livery""#, "\(call)")
                let unknown = try await refusal("lvr_" + String(repeating: "A", count: 43))
                #expect(unknown.status == 401, "\(call) with an unknown key: \(unknown.status)")
                let other = KeyScope.allCases.first { $0 != scope && $0 != .admin } ?? .read
                let lacking = try await refusal(right[other])
                #expect(
                    lacking.status == 403, "\(call) with a \(other.rawValue) key: \(lacking.status) \(lacking.text)")
                let problem = try JSONDecoder().decode(Problem.self, from: lacking.body)
                #expect(problem.kind == .missingScope, "\(call)")
                #expect(problem.scope == scope.rawValue && problem.environment == "default", "\(call): \(problem)")
                let away = try await refusal(elsewhere[scope])
                #expect(away.status == 403, "\(call) with a \(scope.rawValue) key on staging: \(away.status)")
                if target.contains("/ofrep/") {
                    // OFREP's providers send the key as X-API-Key too: refused alike.
                    let stranger = "lvr_" + String(repeating: "B", count: 43)
                    for (key, status) in [(stranger, 401), (right[other] ?? "", 403), (elsewhere[scope] ?? "", 403)] {
                        let answer = try await server.http.send(
                            HTTPMethod(rawValue: route.method), target, headers: [("X-API-Key", key)])
                        #expect(answer.status == status, "\(call) with X-API-Key: \(answer.status) \(answer.text)")
                    }
                }
                for key in [right[scope], right[.admin], TestDaemon.token] {
                    let answer = try await allowed(key)
                    #expect(answer.status != 401 && answer.status != 403, "\(call) with the right key: \(answer)")
                }
            }
        }
    }

    @Test func readsStayOpenWithoutRequireReadKey() async throws {
        let state = try TemporarySpecFolder(prefix: "livery-keys-state")
        try await TestDaemon.with(configure: { $0.stateDirectory = state.url }) { server in
            let push = try await server.addKey("ci", scopes: ["push"], environments: ["*"])
            for route in server.daemon.routeTable where route.scope == .read && route.method == "GET" {
                let target = TestDaemon.target(for: route)
                let answer = try await HostileReadTokenTests.exchange(
                    "GET", target, authorization: nil, port: server.port)
                #expect(answer.status != 401 && answer.status != 403, "GET \(target): \(answer)")
            }
            // A push key cannot manage keys; the token-file key can.
            #expect(try await server.http.get("/v1/keys", headers: [("Authorization", "Bearer \(push)")]).status == 403)
            #expect(
                try await server.http.get("/v1/keys", headers: [("Authorization", "Bearer \(TestDaemon.token)")]).status
                    == 200)
        }
    }
}
