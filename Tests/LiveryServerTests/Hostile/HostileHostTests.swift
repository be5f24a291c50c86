import Foundation
import Testing

/// DNS rebinding: a page whose name now resolves to 127.0.0.1 reaches a loopback daemon with its
/// own name in `Host`, and must get 421 on every path; a request without `Host` gets 400.
@Suite(.timeLimit(.minutes(2))) struct HostileHostTests {
    /// One request shape per path: the raw reader's plain GET, the event-loop handler's
    /// conditional long-poll form, and the router's.
    static let targets = ["/v1/spec", "/v1/spec?wait=0s", "/v1/status", "/v1/events", "/metrics"]

    @Test func aForeignHostIsMisdirectedOnEveryPathAndLoopbackNamesAreServed() async throws {
        let serve = try await ServeProcess(["--allowed-host", "livery.example"])
        for target in Self.targets {
            for host in ["evil.example", "evil.example:\(serve.port)", "127.0.0.1.evil.example", "localhost.", "[::2]"]
            {
                let answer = try await Self.exchange(target, host: host, port: serve.port)
                #expect(answer.status == 421, "\(target) Host: \(host): \(answer)")
                #expect(answer.field("Content-Type") == "application/problem+json", "\(target) Host: \(host)")
                #expect(!String(decoding: answer.body, as: UTF8.self).contains("card"), "\(target): no data leaks")
            }
            for host in [
                "localhost", "127.0.0.1:\(serve.port)", "[::1]", "[::1]:\(serve.port)", "LOCALHOST:\(serve.port)",
                "livery.example", "Livery.Example:443",
            ] where target != "/v1/events" {
                let answer = try await Self.exchange(target, host: host, port: serve.port)
                #expect(answer.status == 200, "\(target) Host: \(host): \(answer)")
            }
        }
        #expect(try await serve.stop() == 0)
    }

    @Test func aRequestWithoutExactlyOneHostIsBad() async throws {
        let serve = try await ServeProcess()
        for target in Self.targets {
            for fields in ["", "Host: localhost\r\nHost: localhost\r\n", "Host: \r\n"] {
                let answer = try await RawResponse.exchange(
                    "GET \(target) HTTP/1.1\r\n\(fields)Connection: close\r\n\r\n", port: serve.port)
                #expect(answer.status == 400, "\(target) with \(fields.debugDescription): \(answer)")
            }
        }
        #expect(try await serve.stop() == 0)
    }

    /// One request on its own connection, closed after the answer (an event stream that was
    /// admitted would never end, so only refusals are read for it).
    static func exchange(_ target: String, host: String, port: Int) async throws -> RawResponse {
        try await RawResponse.exchange(
            "GET \(target) HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n\r\n", port: port)
    }
}
