import Synchronization

/// What the consumer of a ``RemoteSpecSource`` has applied, which the source reports to the
/// server in its `Livery-Client` header (`LiveryClientHeader`).
///
/// The source fetches; only the consumer knows whether a spec was applied. Record each
/// successful load here with ``record(_:skipped:)`` and each refused one with
/// ``recordRefused(_:)`` (`TraitsProvider.follow(urls:…)` does both), and the next request says
/// so. After handing over a new version the source waits for that record, for at most
/// ``settleLimit``, before its next request: a long-poll sent at once would report the old
/// version to the server's fleet status until the wait ends. A consumer that records nothing
/// only delays each request after a new version by that limit. In the version mode a refusal
/// and a problem report are also sent at once (`POST /v1/reports`), so that a rollout's abort
/// does not wait for caches in between to pass this client's header on.
/// Shared by every copy of the source and every iteration of it. With a
/// ``RemoteSpecSource/Configuration/cacheDirectory``, recording a version is also what writes
/// its bundle to the offline cache, so the cache holds the last bundle applied.
public final class AppliedVersion: Sendable {
    private struct State {
        var etag: String?
        var skipped: [String] = []
        var refused: String?
        var problem: String?
        var note: String?
        var keeper: AppliedBundleKeeper?
        var reporter: ReportSender?
        /// The version the consumer recorded last, applied or refused.
        var settled: BodyDigest?
        var waiters: [Int: Waiter] = [:]
        var nextWaiter = 0
    }

    private struct Waiter {
        var digest: BodyDigest
        var continuation: CheckedContinuation<Void, Never>
    }

    /// How long the source waits for the consumer to record a version it handed over.
    public static let settleLimit: Duration = .seconds(1)

    private let state = Mutex(State())

    /// Nothing applied yet.
    public init() {}

    /// The ETag of the spec applied last, or `nil` before the first (or when it had none).
    public var etag: String? { state.withLock { $0.etag } }

    /// The identifiers left on older traits by the last load.
    public var skipped: [String] { state.withLock { $0.skipped } }

    /// Records that the spec of `version` is applied, leaving `skipped` identifiers on older
    /// traits (see `LoadReport.skippedIdentifiers`). With an offline cache, its bundle
    /// is written there atomically, off the calling thread; a failure to write is published by the source.
    public func record(_ version: RemoteVersion, skipped: [String] = []) {
        let (keeper, waiters) = state.withLock { state in
            state.etag = version.etag
            state.skipped = skipped
            return (state.keeper, Self.settle(version.digest, in: &state))
        }
        keeper?.applied(version)
        for waiter in waiters { waiter.resume() }
    }

    /// Records that the consumer did not apply `version` (its provider refused it): what was
    /// applied before stays what the header reports, the source stops waiting, and in the
    /// version mode the refusal is sent to the daemon at once.
    public func recordRefused(_ version: RemoteVersion) {
        let waiters = state.withLock { state in
            state.refused = version.etag ?? state.refused
            return Self.settle(version.digest, in: &state)
        }
        for waiter in waiters { waiter.resume() }
        sendReport()
    }

    /// Records that a version the source fetched did not even parse here (a trait type this
    /// program lacks): reported like a refused load.
    func recordUnreadable(etag: String) {
        state.withLock { $0.refused = etag }
        sendReport()
    }

    /// Reports that the version applied now misbehaves in this program, with `message` (cut to
    /// `ClientIdentity.maxFieldBytes` bytes): in the version mode it is sent to
    /// the daemon at once (`POST /v1/reports`), and every later request says it too. The daemon
    /// counts it against a rollout whose candidate it is and may abort that rollout
    /// (`livery serve --abort-when`). Returns `false`, reporting nothing, before anything is
    /// applied.
    @discardableResult
    public func reportProblem(_ message: String) -> Bool {
        let reported = state.withLock { state in
            guard let etag = state.etag else { return false }
            state.problem = etag
            state.note = message
            return true
        }
        if reported { sendReport() }
        return reported
    }

    /// Sends the header as it is now through the reporter of the session attached, if any.
    private func sendReport() {
        guard let reporter = state.withLock({ $0.reporter }) else { return }
        reporter.send(header(for: reporter.identity))
    }

    /// Marks `digest` settled and takes the waiters for it, to be resumed outside the lock.
    private static func settle(_ digest: BodyDigest, in state: inout State) -> [CheckedContinuation<Void, Never>] {
        state.settled = digest
        let ready = state.waiters.filter { $0.value.digest == digest }
        for id in ready.keys { state.waiters[id] = nil }
        return ready.values.map(\.continuation)
    }

    /// Returns once the consumer has recorded the version of `digest` (applied or refused), after
    /// `limit`, or when the task is cancelled.
    func waitUntilSettled(_ digest: BodyDigest, limit: Duration) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.waitUntilSettled(digest) }
            group.addTask {
                do { try await Task.sleep(for: limit) } catch {}  // cancelled: the record came first
            }
            await group.next()
            group.cancelAll()
        }
    }

    private func waitUntilSettled(_ digest: BodyDigest) async {
        let id = state.withLock { state in
            defer { state.nextWaiter += 1 }
            return state.nextWaiter
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                // Checked under the lock the cancellation handler takes, so a cancellation is
                // either seen here or finds the waiter to resume.
                let now = state.withLock { state in
                    guard state.settled != digest, !Task.isCancelled else { return true }
                    state.waiters[id] = Waiter(digest: digest, continuation: continuation)
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.continuation.resume()
        }
    }

    /// Makes `keeper` the one that writes recorded versions to the cache, for a session's life.
    func attach(_ keeper: AppliedBundleKeeper) {
        state.withLock { $0.keeper = keeper }
    }

    /// Stops `keeper` writing, unless another session has attached its own since.
    func detach(_ keeper: AppliedBundleKeeper) {
        state.withLock { if $0.keeper === keeper { $0.keeper = nil } }
    }

    /// Makes `reporter` the one that sends refusals and problem reports, for a session's life.
    func attach(_ reporter: ReportSender) {
        state.withLock { $0.reporter = reporter }
    }

    /// Stops `reporter` sending, unless another session has attached its own since.
    func detach(_ reporter: ReportSender) {
        state.withLock { if $0.reporter === reporter { $0.reporter = nil } }
    }

    /// The header for `identity` with what is applied now.
    func header(for identity: ClientIdentity) -> LiveryClientHeader {
        state.withLock { state in
            LiveryClientHeader(
                identity: identity, applied: state.etag, skipped: state.skipped, refused: state.refused,
                problem: state.problem, note: state.note)
        }
    }
}
