import Foundation
import LiveryTestSupport
import LiveryTesting
import Testing

/// `livery demo` as a newcomer sees it: the real executable in a real terminal (tmux), real
/// edits through inotify, a real push through its daemon, and the keys a user presses.
/// Serialized: three demos (each a daemon and a watcher) starting at once on two cores would slow
/// the tests running beside them that have deadlines, such as the serve start-up check.
@Suite(.serialized, .timeLimit(.minutes(2))) struct DemoCommandTests {
    /// The SGR parameters of a background colour, as they appear in a captured pane.
    static func background(_ red: Int, _ green: Int, _ blue: Int) -> String { "48;2;\(red);\(green);\(blue)m" }

    static let whiteSurface = background(255, 255, 255)
    static let editedSurface = background(255, 238, 221)
    static let darkSurface = background(28, 28, 30)

    /// Runs the demo on `folder/specs` in tmux. After it exits, the same shell records the
    /// terminal's mode and waits for Enter, so the pane is still alive to be checked, then exits
    /// with the demo's status.
    static func startDemo(in folder: TemporarySpecFolder) async throws -> TmuxSession {
        try folder.write("token", "demo-test-token\n")
        let livery = LiveryProcess.executable.path
        return try await TmuxSession.start(
            "'\(livery)' demo specs --port 0 --token-file token; status=$?; stty -a > stty.txt; "
                + "echo \"demo exited with $status\"; read line; exit $status",
            in: folder.url)
    }

    /// Checks that the demo exited with status 0 and left the terminal as it found it: main
    /// screen, cursor shown, cooked mode.
    static func expectCleanExit(_ tmux: TmuxSession, in folder: TemporarySpecFolder) async throws {
        try await tmux.waitForPane("the demo to exit") { $0.contains("demo exited with") }
        #expect(try await tmux.capture().contains("demo exited with 0"))
        #expect(try await tmux.query("#{alternate_on} #{cursor_flag}") == "0 1")
        let mode = try String(contentsOf: folder.url("stty.txt"), encoding: .utf8).split(whereSeparator: \.isWhitespace)
        for flag in ["icanon", "echo", "isig", "icrnl", "opost"] {
            #expect(mode.contains(Substring(flag)), "stty -a after the demo: \(flag) is off")
        }
        try await tmux.send("Enter")
        try await tmux.waitForExit()
    }

    @Test func restylesOnEditsAndPushesShowsErrorsSwitchesThemesAndQuitsCleanly() async throws {
        let folder = try RepositorySpecs.copy()
        let goodCard = try String(contentsOf: folder.url("specs/card.yaml"), encoding: .utf8)
        let tmux = try await Self.startDemo(in: folder)

        // The first frame with the specs applied: the card's white surface, the default theme.
        let first = try await tmux.waitForPane("the first frame") {
            $0.contains(Self.whiteSurface) && $0.contains("theme: default │ specs: ") && !$0.contains("none yet")
        }
        let url = try #require(first.firstMatch(of: /push: (http:\/\/127\.0\.0\.1:[0-9]+)/)?.output.1)

        // A designer edits a colour: the surface changes at once.
        let palette = try String(contentsOf: folder.url("specs/palette.yaml"), encoding: .utf8)
        try folder.atomicSave(
            "specs/palette.yaml",
            palette.replacingOccurrences(of: ##"surface: "#FFFFFF""##, with: ##"surface: "#FFEEDD""##))
        try await tmux.waitForPane("the edited surface colour") {
            $0.contains(Self.editedSurface) && !$0.contains(Self.whiteSurface)
        }

        // A broken spec: its error shows at the bottom while the last good look stays.
        try folder.write("specs/card.yaml", "specs:\n  card:\n    - { type: CornerRadius, radius: -3 }\n")
        let broken = try await tmux.waitForPane("the error line") {
            $0.contains("specs/card.yaml:3:37: error: 'radius' of trait CornerRadius: -3.0 must be at least 0")
        }
        #expect(broken.contains(Self.editedSurface))
        #expect(broken.contains("Livery"))

        // A push through the demo's daemon replaces the broken file: the error clears.
        try folder.write("pushed/card.yaml", goodCard)
        let (status, output) = try await LiveryProcess.run([
            "push", folder.url("pushed/card.yaml").path, "--server", String(url), "--token-file",
            folder.url("token").path,
        ])
        #expect(status == 0, "\(output)")
        try await tmux.waitForPane("the error line to clear") {
            !$0.contains("error:") && $0.contains(Self.editedSurface)
        }

        // `t` switches to the dark theme.
        try await tmux.send("t")
        try await tmux.waitForPane("the dark theme") {
            $0.contains("theme: dark │") && $0.contains(Self.darkSurface) && !$0.contains(Self.editedSurface)
        }

        // `q` quits with status 0, back on the main screen, cursor shown, terminal cooked.
        try await tmux.send("q")
        try await Self.expectCleanExit(tmux, in: folder)
        let after = try await tmux.capture()
        #expect(after.contains("livery: serving specs on \(url)"))
        #expect(!after.contains("theme: dark"))
    }

    @Test(arguments: ["C-c", "SIGTERM"])
    func ctrlCAndSIGTERMQuitCleanlyToo(how: String) async throws {
        let folder = try RepositorySpecs.copy()
        let tmux = try await Self.startDemo(in: folder)
        try await tmux.waitForPane("the first frame") { $0.contains(Self.whiteSurface) }
        if how == "C-c" {
            try await tmux.send("C-c")
        } else {
            // The demo is the shell's child in the pane.
            let shell = try #require(pid_t(try await tmux.query("#{pane_pid}")))
            let pgrep = try await ChildProcess.run("pgrep", ["-P", "\(shell)"])
            #expect(pgrep.terminationStatus == 0)
            let pid = try #require(pid_t(pgrep.output.trimmingCharacters(in: .whitespacesAndNewlines)))
            #expect(kill(pid, SIGTERM) == 0)
        }
        try await Self.expectCleanExit(tmux, in: folder)
    }
}
