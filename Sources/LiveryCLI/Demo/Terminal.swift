#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The controlling terminal in full-screen mode: raw input (each key at once, no echo, Ctrl-C
/// a key rather than a signal), the alternate screen and a hidden cursor. ``restore()`` puts
/// back cooked mode, the cursor and the main screen, so the shell is as it was.
final class Terminal {
    private var original: termios
    private var restored = false

    /// Enters full-screen mode; throws if standard input or output is not a terminal.
    init() throws(TerminalError) {
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else {
            throw TerminalError("livery demo needs a terminal (standard input and output must be one)")
        }
        var settings = termios()
        guard tcgetattr(STDIN_FILENO, &settings) == 0 else { throw TerminalError.system("tcgetattr") }
        original = settings
        cfmakeraw(&settings)
        guard tcsetattr(STDIN_FILENO, TCSAFLUSH, &settings) == 0 else { throw TerminalError.system("tcsetattr") }
        output(Self.enter)
    }

    deinit { restore() }

    /// Alternate screen, cursor hidden.
    static let enter = "\u{1B}[?1049h\u{1B}[?25l"
    /// Attributes reset, cursor shown, main screen.
    static let leave = "\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l"

    /// Puts the terminal back as it was; safe to call more than once.
    func restore() {
        guard !restored else { return }
        restored = true
        output(Self.leave)
        // Nothing more can be done if this fails (the terminal has gone away), and the process is
        // about to exit, so the result is deliberately not checked.
        _ = tcsetattr(STDIN_FILENO, TCSAFLUSH, &original)
    }

    /// The size in cells; 80 × 24 if the terminal does not say.
    var size: (width: Int, height: Int) {
        var window = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &window) == 0, window.ws_col > 0, window.ws_row > 0 else {
            return (80, 24)
        }
        return (Int(window.ws_col), Int(window.ws_row))
    }

    /// Draws a frame: each line at the start of its row, so nothing scrolls.
    func draw(_ lines: [String]) {
        var frame = ""
        for (row, line) in lines.enumerated() {
            frame += "\u{1B}[\(row + 1);1H" + line
        }
        output(frame)
    }

    /// Writes all of `text` to standard output, retrying short writes and `EINTR`.
    func output(_ text: String) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                return  // The terminal is gone (EIO, EPIPE): there is nowhere left to draw.
            }
            bytes = bytes.dropFirst(written)
        }
    }
}

/// Why the terminal could not be put in full-screen mode.
struct TerminalError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) { self.description = description }

    static func system(_ call: String) -> TerminalError {
        TerminalError("livery demo: \(call) failed: \(String(cString: strerror(errno)))")
    }
}
