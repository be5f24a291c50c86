import Hummingbird
import Logging

/// Runs a Hummingbird router on a free loopback port, for the servers the tests make up.
enum LoopbackServer {
    /// Starts `router` and returns once it listens: its port and the task running it (cancel
    /// the task to stop it).
    static func start(
        _ router: Router<BasicRequestContext>, label: String
    ) async throws -> (port: Int, task: Task<Void, any Error>) {
        let (bound, boundContinuation) = AsyncStream.makeStream(of: Int.self)
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in
                boundContinuation.yield(channel.localAddress?.port ?? 0)
                boundContinuation.finish()
            },
            logger: Logger(label: label) { _ in SwiftLogNoOpLogHandler() })
        let task = Task {
            defer { boundContinuation.finish() }  // a server that cannot bind ends the wait below
            try await app.run()
        }
        var ports = bound.makeAsyncIterator()
        guard let port = await ports.next(), port > 0 else {
            task.cancel()
            throw FreePort.Failure(description: "\(label) did not start")
        }
        return (port, task)
    }
}
