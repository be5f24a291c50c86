import Testing

@testable import LiveryServer

/// The lock that keeps a daemon's writes one at a time.
@Suite(.timeLimit(.minutes(1))) struct AsyncMutexTests {
    private actor Holders {
        var numbers: [Int] = []
        func append(_ number: Int) { numbers.append(number) }
    }

    @Test func waitersGetTheLockOneAtATime() async throws {
        let mutex = AsyncMutex()
        let holders = Holders()
        try await mutex.lock()
        let waiters = (1...3).map { number in
            Task {
                try await mutex.lock()
                await holders.append(number)
                mutex.unlock()
            }
        }
        try await Task.sleep(for: .milliseconds(50))
        #expect(await holders.numbers.isEmpty, "nobody passes a held lock")
        mutex.unlock()
        for waiter in waiters { try await waiter.value }
        #expect(Set(await holders.numbers) == [1, 2, 3])
    }

    @Test func aCancelledWaiterGivesUpAtOnceAndLeavesItsPlace() async throws {
        let mutex = AsyncMutex()
        try await mutex.lock()
        let cancelled = Task { try await mutex.lock() }
        let next = Task {
            try await mutex.lock()
            mutex.unlock()
        }
        try await Task.sleep(for: .milliseconds(50))
        cancelled.cancel()
        // The cancelled waiter ends while the lock is still held, and never takes it.
        await #expect(throws: CancellationError.self) { try await cancelled.value }
        mutex.unlock()
        // Had the cancelled waiter kept its place, the lock would be handed to it and `next` would wait for ever.
        try await next.value
        try await mutex.lock()
        mutex.unlock()
    }

    @Test func aTaskCancelledBeforeItAsksNeverTakesTheLock() async throws {
        let mutex = AsyncMutex()
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await mutex.lock()
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        // The lock is free: had the cancelled task taken it, this would wait for ever.
        try await mutex.lock()
        mutex.unlock()
    }
}
