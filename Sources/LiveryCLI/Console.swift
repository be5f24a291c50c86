import Foundation

/// Lines for commands that print as things happen (`watch`, `serve`): flushed at once, so a
/// pipe (`| tee`, a test reading the output) sees each line when it happens rather than when
/// a buffer fills.
enum Console {
    static func line(_ text: String) {
        print(text)
        fflush(nil)  // nil: every output stream, so this needs no reference to the global `stdout`
    }
}
