import Synchronization

/// Tells the hub when the folder store is writing several files, so that the watcher never
/// publishes a batch half written.
///
/// Each read of the folder takes a ``Mark`` before it starts and asks ``isQuiet(since:)`` after
/// it ends: a read that overlapped a batch in any way is dropped, and when a batch ends the hub
/// reads the folder again (``ends``). Marks are numbered, so of two reads the later one wins.
final class BatchGate: Sendable {
    /// When a read started.
    struct Mark: Sendable {
        /// Orders reads: a later read has a greater number.
        let sequence: Int
        fileprivate let begun: Int
        fileprivate let wasOpen: Bool
    }

    private struct State {
        var open = 0
        var begun = 0
        var reads = 0
    }

    private let state = Mutex(State())
    private let continuation: AsyncStream<Void>.Continuation
    /// One element each time a batch ends.
    let ends: AsyncStream<Void>

    init() {
        (ends, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// A batch starts writing.
    func begin() {
        state.withLock {
            $0.open += 1
            $0.begun += 1
        }
    }

    /// The batch that last began has written everything (or given up).
    func end() {
        state.withLock { $0.open -= 1 }
        continuation.yield()
    }

    /// Marks the start of a read.
    func mark() -> Mark {
        state.withLock { state in
            state.reads += 1
            return Mark(sequence: state.reads, begun: state.begun, wasOpen: state.open > 0)
        }
    }

    /// Whether no batch was open at `mark`, none is open now and none began in between.
    func isQuiet(since mark: Mark) -> Bool {
        state.withLock { !mark.wasOpen && $0.open == 0 && $0.begun == mark.begun }
    }
}
