import Livery
import LiveryRemote
public import ServiceLifecycle

extension SpecConfigProvider: Service {
    /// Follows the folder or the daemon and loads each change, until the task is cancelled or the
    /// service group shuts down gracefully. A change that does not load is logged and kept in
    /// ``lastError``; the last good values stay. A provider made from a fixed spec waits for the
    /// shutdown.
    public func run() async throws {
        switch source {
        case .fixed:
            do {
                try await gracefulShutdown()
            } catch is CancellationError {
                // Cancelled rather than shut down: the same end for a fixed spec.
            }
        case .followed(let followed):
            await followed.follow { update in
                switch update {
                case .success(let spec): apply(spec)
                case .failure(let error): reject(error)
                }
            }
        case .remote(let remote):
            for await update in remote.cancelOnGracefulShutdown() {
                switch update {
                case .loaded(let spec, let version):
                    // Recorded once loaded: the Livery-Client header and the offline cache follow what applied.
                    if apply(spec) {
                        remote.appliedVersion.record(version)
                    } else {
                        remote.appliedVersion.recordRefused(version)
                    }
                case .failed(let error): reject(error)
                }
            }
        }
    }

    /// Loads a spec that arrived, and says whether it loaded; the error, if any, is logged and
    /// kept by ``load(_:)``.
    @discardableResult
    private func apply(_ spec: Spec) -> Bool {
        do {
            try load(spec)
            return true
        } catch {
            // load(_:) has logged it and kept it in lastError; the last good values stay.
            return false
        }
    }
}
