public import Logging
public import ServiceLifecycle

/// Runs a test's in-process server (a Hummingbird application, a `LiveryDaemon`) in a service
/// group of its own, in a task whose cancellation shuts the server down gracefully.
///
/// Not a plain task running the server, cancelled to stop it: a connection the server has
/// accepted but not yet handed to its serving loop is then dropped unclosed, and NIO stops the
/// process ("Deinited NIOAsyncWriter without calling finish()", apple/swift-nio#2637). Under
/// `swift test --parallel` clients connect while other tests stop their servers, and it happened.
/// A graceful shutdown closes every connection it accepted.
public enum GracefulServer {
    /// Starts `service`; cancelling the returned task shuts it down gracefully and the task ends
    /// once it has.
    public static func run(_ service: some Service, logger: Logger) -> Task<Void, any Error> {
        let group = ServiceGroup(configuration: ServiceGroupConfiguration(services: [service], logger: logger))
        // Never cancelled itself: a cancelled group cancels its services instead of shutting them down.
        let serving = Task { try await group.run() }
        return Task {
            try await withTaskCancellationHandler {
                try await serving.value
            } onCancel: {
                Task { await group.triggerGracefulShutdown() }
            }
        }
    }
}
