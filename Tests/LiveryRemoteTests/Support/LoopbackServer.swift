import Hummingbird
import LiveryTestSupport
import Logging

/// Runs a Hummingbird router on a free loopback port, for the servers the tests make up.
enum LoopbackServer {
    /// Starts `router` and returns once it listens: its port and the task running it (cancel
    /// the task to stop it gracefully).
    static func start(
        _ router: Router<BasicRequestContext>, label: String
    ) async throws -> (port: Int, task: Task<Void, any Error>) {
        let (bound, boundContinuation) = AsyncStream.makeStream(of: Int.self)
        let logger = Logger(label: label) { _ in SwiftLogNoOpLogHandler() }
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in
                boundContinuation.yield(channel.localAddress?.port ?? 0)
                boundContinuation.finish()
            },
            logger: logger)
        let task = GracefulServer.run(app, logger: logger)
        Task {
            _ = await task.result
            boundContinuation.finish()  // a server that cannot bind ends the wait below
        }
        var ports = bound.makeAsyncIterator()
        guard let port = await ports.next(), port > 0 else {
            task.cancel()
            throw FreePort.Failure(description: "\(label) did not start")
        }
        return (port, task)
    }
}
