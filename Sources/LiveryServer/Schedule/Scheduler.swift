import Foundation
import Livery
import Logging
import ServiceLifecycle

/// Runs the daemon's schedule (``ScheduleStore``) until graceful shutdown: at each step's time on
/// its clock, the daemon takes the step by a write over the schedule's version, so that of the
/// daemons sharing a store exactly one runs it, then runs it (``ScheduleStep``) and records what
/// became of it. A step found more than the grace late (every daemon was down at its time) is
/// not run: it is marked missed, logged, and listed.
///
/// It starts once the store's first state was seen, when the rollout the store keeps is back
/// in the ``RolloutKeeper`` and a stable version is loaded: a progressive rollout's step then
/// finds its rollout, and a first step can start one.
final class Scheduler: Service, Sendable {
    private let hub: BundleHub
    private let schedule: ScheduleStore
    private let steps: ScheduleStep
    private let clock: any ScheduleClock
    private let grace: TimeInterval
    private let logger: Logger
    private let alarm = ScheduleAlarm()

    /// How long to wait before reading the schedule again when the store could not be read.
    static let retryDelay: TimeInterval = 5

    /// The longest wait for the store's first state before the schedule runs anyway.
    static let startWait = Duration.seconds(10)

    init(
        hub: BundleHub, store: any SpecStore, writer: SpecWriter, rollouts: RolloutKeeper, clock: any ScheduleClock,
        grace: Duration, logger: Logger
    ) {
        self.hub = hub
        self.schedule = ScheduleStore(store: store)
        self.steps = ScheduleStep(writer: writer, rollouts: rollouts)
        self.clock = clock
        self.grace = Double(grace.components.seconds) + Double(grace.components.attoseconds) * 1e-18
        self.logger = logger
    }

    /// The schedule's time now.
    var now: Date { clock.now }

    func run() async {
        await cancelWhenGracefulShutdown { [self] in
            await hub.waitUntilReady(timeout: Self.startWait)
            while !Task.isCancelled {
                guard let next = await runDueSteps() else { continue }
                await alarm.wait(until: next, on: clock)
            }
        }
    }

    /// The schedule changed (here or in another daemon): look at it again now.
    func scheduleChanged() {
        alarm.ring()
    }

    /// Every change, as the store holds it.
    func list() async throws(ScheduleError) -> [ScheduledChange] {
        do throws(StoreError) {
            return try await schedule.read().0.changes.map(\.listed)
        } catch {
            throw .store(error)
        }
    }

    /// Keeps `change` (validated by the caller) in the schedule, and wakes the loop.
    func plan(_ change: ScheduledChange) async throws(ScheduleError) {
        try await schedule.update { book in
            book.changes.append(change)
            return
                "schedule \(change.id) planned: \(change.kind.rawValue) at \(ScheduleTime.text(of: change.steps[0].at))"
        }
        logger.notice(
            "change scheduled",
            metadata: [
                "livery.id": "\(change.id)", "livery.kind": "\(change.kind.rawValue)",
                "livery.at": "\(ScheduleTime.text(of: change.steps[0].at))",
            ])
        alarm.ring()
    }

    /// Cancels the change `id` before its last step; the change as it is now.
    func cancel(id: String) async throws(ScheduleError) -> ScheduledChange {
        var cancelled: ScheduledChange?
        try await schedule.update { book throws(ScheduleError) in
            guard let index = book.index(of: id) else { throw .notFound(id) }
            guard book.changes[index].state == .planned else { throw .ended(id: id, state: book.changes[index].state) }
            book.changes[index].end(.cancelled, detail: "cancelled by an operator")
            cancelled = book.changes[index]
            return "schedule \(id) cancelled"
        }
        logger.notice("scheduled change cancelled", metadata: ["livery.id": "\(id)"])
        guard let cancelled else { throw .notFound(id) }
        return cancelled.listed
    }

    // MARK: The loop

    /// Runs the steps due now; `nil` when it ran one (the schedule is read again at once), else
    /// when the next step is due (`.distantFuture` when none is planned).
    private func runDueSteps() async -> Date? {
        let book: ScheduleStore.Book
        do throws(StoreError) {
            book = try await schedule.read().0
        } catch {
            logger.error("cannot read the schedule", metadata: ["livery.error": "\(error)"])
            return clock.now.addingTimeInterval(Self.retryDelay)
        }
        let now = clock.now
        var next = Date.distantFuture
        for change in book.changes {
            guard let index = change.nextStep, change.steps[index].state == .planned else { continue }
            if change.steps[index].at <= now {
                await take(step: index, of: change.id)
                return nil
            }
            next = min(next, change.steps[index].at)
        }
        return next
    }

    /// Takes the step (or finds it missed), and runs it if this daemon took it.
    private func take(step index: Int, of id: String) async {
        var taken: ScheduledChange?
        var missed: ScheduledChange.Step?
        let now = clock.now
        do throws(ScheduleError) {
            try await schedule.update { book in
                taken = nil
                missed = nil
                guard let position = book.index(of: id), book.changes[position].nextStep == index,
                    book.changes[position].steps[index].state == .planned
                else { return nil }  // another daemon took it, or it was cancelled
                let late = now.timeIntervalSince(book.changes[position].steps[index].at)
                if late > grace {
                    book.changes[position].steps[index].state = .missed
                    book.changes[position].steps[index].detail = Self.lateness(late)
                    missed = book.changes[position].steps[index]
                    book.changes[position].end(.missed, detail: "step \(index + 1) missed: \(Self.lateness(late))")
                    return "schedule \(id) step \(index + 1) missed"
                }
                book.changes[position].steps[index].state = .claimed
                book.changes[position].steps[index].ranAt = now
                taken = book.changes[position]
                return "schedule \(id) step \(index + 1) taken"
            }
        } catch {
            logger.error(
                "cannot take a scheduled step",
                metadata: ["livery.id": "\(id)", "livery.step": "\(index + 1)", "livery.error": "\(error)"])
            return
        }
        if let missed {
            logger.warning(
                "scheduled step missed: the daemons were down at its time, beyond the grace",
                metadata: [
                    "livery.id": "\(id)", "livery.step": "\(index + 1)",
                    "livery.at": "\(ScheduleTime.text(of: missed.at))",
                ])
        }
        guard let taken else { return }
        let outcome = await steps.run(index, of: taken)
        await record(outcome, step: index, of: id)
    }

    /// Records what became of a step this daemon took.
    private func record(_ outcome: ScheduleStep.Outcome, step index: Int, of id: String) async {
        do throws(ScheduleError) {
            try await schedule.update { book in
                guard let position = book.index(of: id) else { return nil }
                var change = book.changes[position]
                switch outcome {
                case .done(let rolloutID):
                    change.steps[index].state = .done
                    if let rolloutID { change.rolloutID = rolloutID }
                    if change.state == .planned, change.nextStep == nil { change.end(.done, detail: nil) }
                case .failed(let reason):
                    change.steps[index].state = .failed
                    change.steps[index].detail = reason
                    if change.state == .planned { change.end(.failed, detail: "step \(index + 1): \(reason)") }
                case .aborted(let reason):
                    change.steps[index].state = .cancelled
                    change.steps[index].detail = reason
                    if change.state == .planned { change.end(.aborted, detail: reason) }
                }
                book.changes[position] = change
                return "schedule \(id) step \(index + 1) \(change.steps[index].state.rawValue)"
            }
        } catch {
            logger.error(
                "cannot record a scheduled step", metadata: ["livery.id": "\(id)", "livery.error": "\(error)"])
        }
        switch outcome {
        case .done:
            logger.notice("scheduled step done", metadata: ["livery.id": "\(id)", "livery.step": "\(index + 1)"])
        case .failed(let reason), .aborted(let reason):
            logger.warning(
                "scheduled change ended",
                metadata: ["livery.id": "\(id)", "livery.step": "\(index + 1)", "livery.reason": "\(reason)"])
        }
    }

    private static func lateness(_ late: TimeInterval) -> String {
        "its daemons were down at its time; \(Int(late)) s late is beyond the grace"
    }
}
