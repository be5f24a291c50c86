import CInotifyTools
import Glibc

/// An `eventfd` that other threads write to wake the owner thread out of `poll`.
///
/// It lives as long as the process (it belongs to ``InotifyOwner/shared``): closing it while a
/// sender that read its number is about to write would let that write land in whatever file
/// reused the number.
struct WakeSignal: Sendable {
    /// The eventfd, non-blocking and close-on-exec.
    let descriptor: Int32

    /// Creates the eventfd.
    static func make() -> Result<WakeSignal, WatchError> {
        retryingInterrupts { eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK)) }
            .map { WakeSignal(descriptor: $0) }
            .mapError {
                WatchError(.inotify, path: "eventfd", "cannot create the owner thread's wake-up descriptor", $0)
            }
    }

    /// Wakes the owner thread. A full counter (`EAGAIN`) means it is already due to wake.
    func signal() {
        var one: UInt64 = 1
        let result = retryingInterrupts { write(descriptor, &one, MemoryLayout<UInt64>.size) }
        if case .failure(let error) = result, error.rawValue != EAGAIN {
            // Writing 8 bytes to an eventfd we own can only fail with EAGAIN; anything else is a
            // broken invariant, and silently losing wake-ups would hang watchers.
            preconditionFailure("eventfd write failed: \(error)")
        }
    }

    /// Resets the counter after a wake-up. `EAGAIN` means there was nothing to reset.
    func drain() {
        var counter: UInt64 = 0
        let result = retryingInterrupts { read(descriptor, &counter, MemoryLayout<UInt64>.size) }
        if case .failure(let error) = result, error.rawValue != EAGAIN {
            preconditionFailure("eventfd read failed: \(error)")
        }
    }
}
