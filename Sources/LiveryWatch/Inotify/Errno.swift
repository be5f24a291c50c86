import Glibc
import Livery

/// The `errno` a failed system call left behind.
struct Errno: Error, Hashable, Sendable, CustomStringConvertible {
    /// The raw `errno` value.
    var rawValue: Int32

    /// The calling thread's current `errno`.
    static var current: Errno { Errno(rawValue: errno) }

    /// Why, in the words of every file error of Livery, such as "no space left on the device".
    var description: String { FileSystemError.reason(errno: rawValue) }
}

/// Runs `call` until it stops failing with `EINTR`; a result of -1 becomes the `errno` it left.
///
/// Every system call of this module goes through here (or says why not), so a signal delivered
/// to the process never surfaces as a spurious failure. After swift-system's `valueOrErrno`.
func retryingInterrupts<Result: FixedWidthInteger>(
    _ call: () -> Result
) -> Swift.Result<Result, Errno> {
    while true {
        let result = call()
        if result != -1 { return .success(result) }
        let error = Errno.current
        if error.rawValue != EINTR { return .failure(error) }
    }
}
