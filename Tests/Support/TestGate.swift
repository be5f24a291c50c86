/// A readers–writer gate that keeps some tests of the process apart from others: many shared
/// holders run at once, an exclusive holder runs alone, and a waiting exclusive holder keeps new
/// shared ones out, so it is not starved by a long series of them.
///
/// Every test target runs in one process, in parallel under `swift test --parallel`, so two
/// things are shared that a test may need to itself:
/// - ``inotify``: ``LiveryWatch``'s single inotify owner thread. A test asserting "exactly two
///   watches" fails whenever another suite's watcher happens to be running, so such tests hold
///   it exclusively; tests that start watchers (in-process daemons) hold it shared.
/// - ``heavy``: the machine. Tests that start hundreds of clients, an nginx fleet, an etcd cluster
///   whose leader they kill, or a flood, and then bound how soon something happens, hold it
///   exclusively, so no two of them load a two-core machine at once; lighter tests run beside them.
///   A test's time limit counts its wait for the gate (the heavy tests take about two minutes in
///   all, one after another), so their suites allow five minutes; list `.heavy` before
///   `.inotifyShared`, as scopes nest in the order traits are listed and the gates must always
///   be taken in one order.
package actor TestGate {
    /// The gate around the process's inotify owner.
    public static let inotify = TestGate()
    /// The gate around the machine's capacity for heavy tests.
    public static let heavy = TestGate()

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

    /// The gates the current task holds (a test holds them for its child tasks too).
    @TaskLocal private static var held: [ObjectIdentifier] = []

    /// Runs `body` holding the gate as asked, and releases it however `body` ends.
    ///
    /// A task that holds the gate already runs `body` at once: a test that starts a second
    /// daemon inside the first (two daemons on one etcd) asks again, and waiting would deadlock
    /// as soon as an exclusive holder waited between the two asks — it waits for the first hold
    /// to end, and the second keeps the first from ending.
    public func holding<T>(
        exclusive: Bool, isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> T
    ) async rethrows -> T {
        let gate = ObjectIdentifier(self)
        if Self.held.contains(gate) { return try await body() }
        await acquire(exclusive: exclusive)
        do {
            let result = try await Self.$held.withValue(Self.held + [gate]) { try await body() }
            await release(exclusive: exclusive)
            return result
        } catch {
            await release(exclusive: exclusive)
            throw error
        }
    }
}
