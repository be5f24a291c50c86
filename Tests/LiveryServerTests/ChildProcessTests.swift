import Foundation
import LiveryTestSupport
import Testing

/// The launcher every test and benchmark starts processes with: under `swift test --parallel`
/// many tests launch at once, and a launch must neither leak into the others' children nor wait
/// on them.
@Suite(.timeLimit(.minutes(1))) struct ChildProcessTests {
    /// Foundation's `Process` hands every child a socket whose end tells it of the exit; a child
    /// launched at the same moment from another thread can inherit it and hide that exit for as
    /// long as it lives. Launched together, each child here holds its three streams and nothing else.
    @Test func childrenLaunchedAtOnceHoldOnlyTheirStandardStreams() async throws {
        let children = try await withThrowingTaskGroup(of: ChildProcess.self) { group in
            for _ in 0..<12 {
                group.addTask {
                    let child = ChildProcess("/bin/sleep", ["30"])
                    try await child.start()
                    return child
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        for child in children {
            // The loader opens the libraries it maps for a moment: what stays is what it holds.
            let descriptors = "/proc/\(child.processIdentifier)/fd"
            let held = { (try? FileManager.default.contentsOfDirectory(atPath: descriptors).sorted()) ?? [] }
            let onlyStandard = try await TestDaemon.eventually { held() == ["0", "1", "2"] }
            #expect(onlyStandard, "child \(child.processIdentifier) holds \(held())")
            child.send(SIGKILL)
        }
        for child in children {
            await child.waitUntilExit()
            #expect(child.terminationReason == .uncaughtSignal && child.terminationStatus == SIGKILL)
        }
    }

    /// An in-process daemon leaves SIGINT ignored in this whole process (its graceful shutdown
    /// listens for it); Foundation's `Process` passed that on, so a `livery watch` child ignored
    /// the tests' Ctrl-C and the test waiting for its end waited for ever. Children start with
    /// every signal at its default and none blocked, whatever this process does with them.
    @Test func childrenStartWithDefaultSignals() async throws {
        let previous = signal(SIGINT, SIG_IGN)
        let child = ChildProcess("/bin/sleep", ["30"])
        defer { signal(SIGINT, previous) }
        try await child.start()
        // The signal sets of /proc/PID/status, as hex masks; bit n - 1 is signal n. Only the
        // classic signals (1...31): glibc keeps two of the real-time ones for itself.
        let status = try String(contentsOfFile: "/proc/\(child.processIdentifier)/status", encoding: .utf8)
        func signals(_ field: String) -> UInt64? {
            status.split(separator: "\n").first { $0.hasPrefix(field + ":") }
                .flatMap { UInt64($0.dropFirst(field.count + 1).trimmingCharacters(in: .whitespaces), radix: 16) }
                .map { $0 & 0x7FFF_FFFF }
        }
        #expect(signals("SigIgn") == 0)
        #expect(signals("SigBlk") == 0)
        child.interrupt()
        try await child.waitUntilExit(timeout: .seconds(10))
        #expect(child.terminationReason == .uncaughtSignal && child.terminationStatus == SIGINT)
    }

    /// A child that leaves a process behind holding its output (as a daemon's first process
    /// does) has still ended when it exits.
    @Test func anExitIsSeenWhileAProcessLeftBehindHoldsTheOutput() async throws {
        let started = ContinuousClock.now
        let shell = try await ChildProcess.run("/bin/sh", ["-c", "sleep 30 & echo $!; echo started"])
        #expect(ContinuousClock.now - started < .seconds(10))
        #expect(shell.terminationReason == .exit && shell.terminationStatus == 0)
        let lines = shell.output.split(separator: "\n")
        #expect(lines.last == "started")
        if let left = lines.first.flatMap({ pid_t($0) }) { kill(left, SIGKILL) }
    }

    @Test func exitStatusesAndSignals() async throws {
        let failing = try await ChildProcess.run("/bin/sh", ["-c", "exit 3"])
        #expect(failing.terminationReason == .exit && failing.terminationStatus == 3)

        let sleeper = ChildProcess("sleep", ["30"])  // looked up on PATH
        try await sleeper.start()
        #expect(sleeper.isRunning && sleeper.processIdentifier > 0)
        sleeper.terminate()
        try await sleeper.waitUntilExit(timeout: .seconds(10))
        #expect(!sleeper.isRunning)
        #expect(sleeper.terminationReason == .uncaughtSignal && sleeper.terminationStatus == SIGTERM)

        await #expect(throws: ChildProcess.Failure.self) {
            try await ChildProcess("/nonexistent/livery-test-binary").start()
        }
    }

    @Test func outputApartOrMergedInTheOrderPrinted() async throws {
        let script = "echo one; sleep 0.05; echo two >&2; sleep 0.05; printf three"
        let apart = try await ChildProcess.run("/bin/sh", ["-c", script])
        #expect(apart.output == "one\nthree")
        #expect(apart.errors == "two\n")

        let merged = ChildProcess("/bin/sh", ["-c", script], streams: .merged)
        try await merged.start()
        var lines: [String] = []
        for try await line in merged.lines { lines.append(line) }
        await merged.waitUntilExit()
        #expect(lines == ["one", "two", "three"])
        #expect(merged.output == "one\ntwo\nthree" && merged.errors.isEmpty)
    }

    @Test func environmentIsAddedToOrRemovedFromThisProcesss() async throws {
        let printed = try await ChildProcess.run(
            "/bin/sh", ["-c", "echo \"$LIVERY_CHILD_TEST|${HOME-unset}\""],
            environment: ["LIVERY_CHILD_TEST": "yes", "HOME": nil])
        #expect(printed.output == "yes|unset\n")
    }
}
