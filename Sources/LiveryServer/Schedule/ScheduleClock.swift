package import Foundation

/// The time schedules are kept in: wall-clock dates, since an operator names them in RFC 3339
/// (`--at 2026-12-02T18:00:00Z`). The daemon reads ``WallClock``; a test gives its own, which
/// it moves by hand, so that a step due in half an hour runs without half an hour of waiting.
package protocol ScheduleClock: Sendable {
    /// The time now.
    var now: Date { get }

    /// Returns once ``now`` has reached `deadline` (at once if it has); throws
    /// `CancellationError` when the calling task is cancelled first.
    func sleep(until deadline: Date) async throws
}

/// The system's wall clock.
package struct WallClock: ScheduleClock {
    /// The longest single sleep: the wall clock can be set while the daemon sleeps (NTP, an
    /// operator), so it is read again at least this often.
    static let longestSleep: TimeInterval = 60

    package init() {}

    package var now: Date { Date() }

    package func sleep(until deadline: Date) async throws {
        while true {
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { return }
            try await Task.sleep(for: .seconds(min(left, Self.longestSleep)))
        }
    }
}
