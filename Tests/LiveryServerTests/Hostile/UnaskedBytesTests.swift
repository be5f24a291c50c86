import Foundation
import LiveryTestSupport
import LiveryTesting
import Testing

@testable import LiveryServer

/// `RawBundleHandler`'s rule for bytes nobody asked to read: once a peer hangs up, NIO reads its
/// connection to the end, paused or not; what arrives so is held, not parsed (and the connection
/// closed past `RawBundleHandler.maxUnaskedBytes`). A client that pipelines requests without
/// reading the answers, then hangs up, leaves the daemon's receive buffer full of requests:
/// answering them would cost the daemon seconds for a connection that is gone.
@Suite(.heavy, .timeLimit(.minutes(5))) struct UnaskedBytesTests {
    static let request = "GET /v1/spec HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"

    /// The raw path's answers so far: `GET /v1/spec` answered 200.
    private static func answered(_ daemon: TestDaemon) -> Int {
        let line = daemon.daemon.metrics.render().split(separator: "\n").first {
            $0.hasPrefix("livery_http_requests_total{") && $0.contains(#"route="/v1/spec""#)
                && $0.contains(#"method="GET""#) && $0.contains(#"status="200""#)
        }
        return line.flatMap { Int($0.split(separator: " ").last ?? "") } ?? 0
    }

    @Test func requestsLeftBehindByAPeerThatHungUpAreNeverAnswered() async throws {
        try await TestDaemon.with { daemon in
            let block = Data(String(repeating: Self.request, count: 65536 / Self.request.utf8.count).utf8)
            var flooder: RawConnection? = try RawConnection(port: daemon.port)
            // Until the daemon takes nothing for half a second: its answers stopped draining, it
            // stopped reading, and the requests it did not read fill the buffers between.
            var sent = 0
            var quiet = 0
            while quiet < 50 {
                let taken = try flooder?.sendAvailable(block) ?? 0
                sent += taken
                quiet = taken == 0 ? quiet + 1 : 0
                try await Task.sleep(for: .milliseconds(10))
            }
            let requests = sent / Self.request.utf8.count
            let before = Self.answered(daemon)
            #expect(before < requests - 2 * 65536 / Self.request.utf8.count, "sent \(requests), answered \(before)")

            // It hangs up with its answers unread (a reset); the daemon reads what it had not.
            flooder = nil
            #expect(try await daemon.http.get("/healthz").status == 200)
            try await Task.sleep(for: .seconds(1))
            let after = Self.answered(daemon)
            #expect(after - before < RawBundleHandler.batchSize, "answered \(after - before) after the hang-up")
        }
    }
}
