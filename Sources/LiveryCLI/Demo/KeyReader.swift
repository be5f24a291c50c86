import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Reads standard input byte by byte on a thread of its own (`read` blocks, and there is no
/// async file API on Linux) and hands each byte to `deliver`. At end of input or on a read error
/// (the terminal went away) it calls `ended` and stops; a thread still blocked in `read` when the
/// demo quits ends with the process.
enum KeyReader {
    static func start(deliver: @escaping @Sendable (UInt8) -> Void, ended: @escaping @Sendable () -> Void) {
        let thread = Thread {
            var byte: UInt8 = 0
            while true {
                let count = read(STDIN_FILENO, &byte, 1)
                if count == 1 {
                    deliver(byte)
                } else if count < 0, errno == EINTR {
                    continue
                } else {
                    ended()
                    return
                }
            }
        }
        thread.name = "livery-demo-keys"
        thread.start()
    }
}
