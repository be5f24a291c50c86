/// Keeps tests that count the process-wide inotify owner's watches apart from tests that run
/// watchers of their own (an in-process daemon, say).
///
/// Every test target runs in one process and shares ``LiveryWatch``'s single owner thread, so a
/// test asserting "exactly two watches" fails whenever another suite's watcher happens to be
/// running. Such tests hold the gate exclusively; tests that start watchers hold it shared. Many
/// shared holders run at once; a waiting exclusive holder keeps new shared ones out, so it is not
/// starved by a long series of daemons.
package actor InotifyTestGate {
    /// The one gate of the process.
    public static let shared = InotifyTestGate()

    private var readers = 0
    private var writer = false
    private var waiting: [(exclusive: Bool, continuation: CheckedContinuation<Void, Never>)] = []

    /// Waits until the gate is held as asked.
    public func acquire(exclusive: Bool) async {
        let free =
            exclusive ? !writer && readers == 0 && waiting.isEmpty : !writer && !waiting.contains { $0.exclusive }
        if free {
            if exclusive { writer = true } else { readers += 1 }
            return
        }
        await withCheckedContinuation { waiting.append((exclusive, $0)) }
    }

    /// Gives back what ``acquire(exclusive:)`` took, and lets the next waiters in.
    public func release(exclusive: Bool) {
        if exclusive { writer = false } else { readers -= 1 }
        while let next = waiting.first {
            if next.exclusive {
                guard !writer, readers == 0 else { return }
                writer = true
            } else {
                guard !writer else { return }
                readers += 1
            }
            waiting.removeFirst()
            next.continuation.resume()
            if next.exclusive { return }
        }
    }

    /// Runs `body` holding the process's gate as asked, and releases it however `body` ends.
    public static func holding<T>(
        exclusive: Bool, isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> T
    ) async rethrows -> T {
        await shared.acquire(exclusive: exclusive)
        do {
            let result = try await body()
            await shared.release(exclusive: exclusive)
            return result
        } catch {
            await shared.release(exclusive: exclusive)
            throw error
        }
    }
}
