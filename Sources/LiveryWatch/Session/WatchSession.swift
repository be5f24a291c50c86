import Synchronization

/// What drives a session's engine, in arrival order.
enum EngineInput: Sendable {
    /// Something from the owner thread.
    case inotify(InotifyDelivery)
    /// The settle timer of the given generation fired.
    case settleTimer(generation: UInt64)
    /// The periodic rescan timer fired.
    case rescanTimer
    /// The completion grace timer of the given generation fired: a spec file was completed and
    /// nothing else happened since.
    case graceTimer(generation: UInt64)
}

/// The parts of one watch session that other threads touch: the counters, the input of its
/// engine, and the stop switch. The engine itself lives inside its task (``WatchEngine``).
final class WatchSession: Sendable {
    private struct Control {
        var stopped = false
        var engine: Task<Void, Never>?
    }

    let id: WatcherID
    let owner: InotifyOwner
    /// Read by ``FolderWatcher/statistics``, written by the engine.
    let statistics = Mutex(WatchStatistics())
    /// Deliveries the owner thread has sent; the engine compares it with what it has consumed to
    /// know whether more events are already on their way.
    let deliveries = Atomic<UInt64>(0)
    /// The engine's input.
    let input: AsyncStream<EngineInput>.Continuation
    private let finishOutput: @Sendable () -> Void
    private let control = Mutex(Control())

    init(
        owner: InotifyOwner, input: AsyncStream<EngineInput>.Continuation, finishOutput: @escaping @Sendable () -> Void
    ) {
        self.id = owner.makeWatcherID()
        self.owner = owner
        self.input = input
        self.finishOutput = finishOutput
    }

    /// Registers with the owner thread; its events become engine input.
    func register() {
        owner.register(
            id,
            sink: InotifySink(
                announce: { [self] in deliveries.add(1, ordering: .releasing) },
                deliver: { [self] delivery in input.yield(.inotify(delivery)) }
            )
        )
    }

    /// Hands over the engine's task, so stopping can cancel it.
    func attach(_ engine: Task<Void, Never>) {
        let stopped = control.withLock { control in
            control.engine = engine
            return control.stopped
        }
        if stopped { engine.cancel() }
    }

    /// Stops without waiting: for `deinit` and the consumer's cancellation.
    func stopSoon() {
        if beginStop() { owner.unregisterSoon(id) }
    }

    /// Stops and returns once the owner thread has removed the session's watches.
    func stop() async {
        _ = beginStop()
        await owner.unregister(id)
    }

    /// Marks the session stopped (the first time only: returns whether this call did it), cancels
    /// the engine (a scan in progress finishes, but nothing more is yielded) and ends both streams.
    private func beginStop() -> Bool {
        let engine: Task<Void, Never>?? = control.withLock { control in
            guard !control.stopped else { return .none }
            control.stopped = true
            return .some(control.engine)
        }
        guard case .some(let task) = engine else { return false }
        task?.cancel()
        input.finish()
        finishOutput()
        return true
    }
}
