import Foundation
import LiveryTestSupport
import LiveryTesting
import Testing

/// `livery push --rollout` and `livery rollout`, run as processes against a real daemon.
@Suite(.timeLimit(.minutes(2)), .inotifyShared)
struct RolloutCommandTests {
    @Test func startWidenAbortAndRefusals() async throws {
        let setup = try await CommandTestDaemon(prefix: "livery-rollout-cli")
        defer { setup.serving.cancel() }
        let (local, server) = (setup.local, setup.server)
        let access = ["--server", server, "--token-file", local.url("token").path]

        // Asking for the state when there is none is the state shown, not a refusal.
        let none = try await LiveryProcess.run(["rollout"] + access)
        #expect(none.status == 0 && none.output.contains("no rollout has run on \(server)"), "\(none.output)")
        #expect(!none.output.contains("refused") && !none.output.contains("error"), "\(none.output)")
        for action in [["set", "20%"], ["abort"], ["complete"]] {
            let refused = try await LiveryProcess.run(["rollout"] + action + access)
            #expect(refused.status == 1, "\(refused.output)")
            #expect(
                refused.output.contains("error: rollout \(action[0]) refused, 409 No rollout is running"),
                "\(refused.output)")
            #expect(!refused.output.contains("push refused"), "\(refused.output)")
        }

        let started = try await LiveryProcess.run(
            ["push", local.url("box.yaml").path, "--rollout", "10%", "-m", "rounder"] + access)
        #expect(started.status == 0, "\(started.output)")
        #expect(started.output.contains("running, 10% of clients get"), "\(started.output)")
        #expect(started.output.contains("started ") && started.output.contains(": rounder"))

        let again = try await LiveryProcess.run(["push", local.url("box.yaml").path, "--rollout", "5%"] + access)
        #expect(again.status == 1 && again.output.contains("409 A rollout is running"), "\(again.output)")

        let widened = try await LiveryProcess.run(["rollout", "set", "12.5%"] + access)
        #expect(widened.status == 0 && widened.output.contains("running, 12.5% of clients"), "\(widened.output)")
        let shown = try await LiveryProcess.run(["rollout"] + access)
        #expect(shown.output.contains("12.5%") && shown.output.contains("(abort when 1)"), "\(shown.output)")

        let stale = try await LiveryProcess.run(["rollout", "abort", "--id", "not-this-one"] + access)
        #expect(stale.status == 1 && stale.output.contains("412"), "\(stale.output)")
        let aborted = try await LiveryProcess.run(["rollout", "abort", "-m", "looks wrong"] + access)
        #expect(aborted.status == 0 && aborted.output.contains("aborted"), "\(aborted.output)")
        #expect(aborted.output.contains("looks wrong"))
        // Nobody gets the candidate any more: the summary says so, not the share it had.
        let afterAbort = try await LiveryProcess.run(["rollout"] + access)
        #expect(afterAbort.status == 0, "\(afterAbort.output)")
        #expect(
            afterAbort.output.contains("aborted at 12.5%: candidate")
                && afterAbort.output.contains("withdrawn, every client returned to the stable version"),
            "\(afterAbort.output)")
        #expect(!afterAbort.output.contains("of clients get"), "\(afterAbort.output)")
        let nothing = try await LiveryProcess.run(["rollout", "complete"] + access)
        #expect(nothing.status == 1 && nothing.output.contains("No rollout is running"), "\(nothing.output)")
        #expect(nothing.output.contains("error: rollout complete refused"), "\(nothing.output)")
    }

    @Test(arguments: [
        (["rollout", "set"], "set needs a share"),
        (["rollout", "set", "150%"], "'150%' is not a share"),
        (["rollout", "widen"], "unknown action 'widen'"),
        (["rollout", "abort", "5%"], "abort takes no share"),
        (["push", "a.yaml", "--rollout", "ten"], "--rollout 'ten' is not a share"),
        (["push", "a.yaml", "--replace"], "--replace replaces a rollout's candidate"),
        (["serve", "--abort-when", "0"], "--abort-when '0' is neither"),
    ])
    func badArgumentsAreUsageErrors(arguments: [String], message: String) async throws {
        let (status, output) = try await LiveryProcess.run(arguments)
        #expect(status == 64, "\(output)")
        #expect(output.contains(message), "\(output)")
    }
}
