/// Decides when a burst of events has settled: one window after its last event, but never later
/// than the maximum number of windows after its first, so a never-ending stream of writes still
/// gets published regularly. While a writer still holds a spec file open (written in place and
/// not yet closed), a quiet window is not the end of the burst: only the cap, counted from the
/// writer's first write, is.
///
/// Pure timing, no I/O: the engine records events and asks for the deadline.
struct SettleWindow: Sendable {
    typealias Instant = ContinuousClock.Instant

    /// The quiet time that ends a burst.
    let window: Duration
    /// The longest a burst may postpone a scan.
    let limit: Duration
    private(set) var firstEvent: Instant?
    private(set) var lastEvent: Instant?

    init(window: Duration, maximumWindows: Int) {
        self.window = window
        self.limit = window * max(maximumWindows, 1)
    }

    /// Notes an event at `now`.
    mutating func record(at now: Instant) {
        if firstEvent == nil { firstEvent = now }
        lastEvent = now
    }

    /// When the pending burst should be scanned, or `nil` with nothing pending. A writer that
    /// has held a file open since `writingSince` holds the scan until the cap after that: one that
    /// paused between truncating a file and writing it (a loaded machine deschedules it for
    /// longer than a window) is not done. The cap is counted from its write, not from the burst's
    /// first event, which may be an earlier save the fast path already published.
    func deadline(writingSince: Instant? = nil) -> Instant? {
        guard let firstEvent, let lastEvent else { return nil }
        let settled = min(lastEvent + window, firstEvent + limit)
        guard let writingSince else { return settled }
        return max(settled, writingSince + limit)
    }

    /// Whether the deadline is the cap rather than the end of a quiet window: the burst is still
    /// going on, and a scan now may see files mid-write.
    var isCapped: Bool {
        guard let firstEvent, let lastEvent else { return false }
        return firstEvent + limit < lastEvent + window
    }

    /// Forgets the pending burst (a scan is starting).
    mutating func reset() {
        firstEvent = nil
        lastEvent = nil
    }
}
