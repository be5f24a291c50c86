import Foundation
import LiveryServer
import LiveryTestSupport
import LiveryTesting
import Testing

extension ManualClock: ScheduleClock {}

/// `livery promote --at` and `livery schedule`, run as processes against a real daemon of two
/// environments whose schedule runs on a clock the test moves.
@Suite(.timeLimit(.minutes(2)), .inotifyShared)
struct PromoteCommandTests {
    @Test func aPromotionPlannedForLaterRunsAtItsTime() async throws {
        let clock = ManualClock()
        let setup = try await CommandTestDaemon(
            prefix: "livery-promote-cli", environments: ["production", "staging"],
            files: [
                "staging/box.yaml": "specs:\n  box:\n    - { type: CornerRadius, radius: 2 }\n",
                "staging/extra.yaml": "specs:\n  extra: []\n", "production/old.yaml": "specs:\n  old: []\n",
            ],
            configure: { $0.scheduleClock = clock })
        defer { setup.serving.cancel() }
        let folder = setup.folder
        let access = ["--server", setup.server, "--token-file", setup.local.url("token").path]
        // Staging's history records its files once the daemon loaded them: revision 1.
        #expect(
            try await CommandTestDaemon.eventually {
                try await LiveryProcess.run(["history", "--server", setup.server, "--environment", "staging"]).output
                    .contains("edited on disk")
            })
        let at = ScheduleTime.text(of: clock.now.addingTimeInterval(600))

        let planned = try await LiveryProcess.run(
            ["promote", "staging", "production", "--at", at, "-m", "ship"] + access)
        #expect(planned.status == 0, "\(planned.output)")
        #expect(planned.output.hasPrefix("scheduled "), "\(planned.output)")
        #expect(planned.output.contains("planned  promotion from staging at revision 1"), "\(planned.output)")
        #expect(planned.output.contains("1. \(at)  planned"), "\(planned.output)")
        let listed = try await LiveryProcess.run(["schedule", "--environment", "production"] + access)
        #expect(listed.output.contains("promotion from staging at revision 1"), "\(listed.output)")
        try folder.write("staging/box.yaml", "specs:\n  box:\n    - { type: CornerRadius, radius: 3 }\n")

        clock.advance(by: 600)
        #expect(
            try await CommandTestDaemon.eventually {
                !FileManager.default.fileExists(atPath: folder.url("production/old.yaml").path)
            })
        #expect(try String(contentsOf: folder.url("production/box.yaml"), encoding: .utf8).contains("radius: 2"))
        #expect(FileManager.default.fileExists(atPath: folder.url("production/extra.yaml").path))
        let history = try await LiveryProcess.run(["history", "--server", setup.server, "--environment", "production"])
        #expect(history.output.contains("promoted from staging at revision 1: ship"), "\(history.output)")
    }

    @Test(arguments: [
        (["--at", "tomorrow"], "--at 'tomorrow' is not an RFC 3339 time"),
        (["--at", "2030-01-01T00:00:00Z", "--dry-run"], "--dry-run shows a promotion made now"),
        (["--at", "2030-01-01T00:00:00Z", "--rollout", "10%"], "--at schedules a publish, not a rollout"),
        (["--at", "2030-01-01T00:00:00Z", "--if-match", "abc"], "--if-match applies to a promotion made now"),
    ])
    func scheduleOptionsInTheWrongCompanyAreUsageErrors(arguments: [String], message: String) async throws {
        let (status, output) = try await LiveryProcess.run(["promote", "staging", "production"] + arguments)
        #expect(status == 64, "\(output)")
        #expect(output.contains(message), "\(output)")
    }
}
