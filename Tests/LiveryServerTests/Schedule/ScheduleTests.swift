import Foundation
import LiveryServer
import LiveryTestSupport
import LiveryTesting
import Testing

/// Scheduled changes on a folder daemon, whose time is a clock the test moves: a push runs at
/// its time and not before, is refused at once when it does not validate, can be cancelled,
/// and outlives a restart (run once within the grace, reported missed after it).
@Suite(.timeLimit(.minutes(2)), .inotifyShared)
struct ScheduleTests {
    static let accent = "#FF9500"

    /// The palette on disk.
    static func palette(_ daemon: TestDaemon) throws -> String {
        try String(contentsOf: daemon.folder.url("palette.yaml"), encoding: .utf8)
    }

    @Test("a scheduled push waits for its time, then publishes within a second of it")
    func pushRunsAtItsTime() async throws {
        let clock = ManualClock()
        let state = try TemporarySpecFolder(prefix: "livery-schedule-state")
        try await TestDaemon.with(configure: {
            $0.scheduleClock = clock; $0.stateDirectory = state.url
        }) { daemon in
            let before = try await daemon.bundleETag()
            let id = try await daemon.schedulePush(accent: Self.accent, at: clock.now.addingTimeInterval(600))
            #expect(try await daemon.scheduleState(id) == ("planned", ["planned"]))
            clock.advance(by: 599)
            try await Task.sleep(for: .milliseconds(300))
            #expect(try await daemon.bundleETag() == before, "the push ran before its time")
            clock.advance(by: 1)
            let moved = ContinuousClock.now
            #expect(try await TestDaemon.eventually { try await daemon.bundleETag() != before })
            #expect(ContinuousClock.now - moved < .seconds(1))
            #expect(try Self.palette(daemon).contains(Self.accent))
            #expect(try await TestDaemon.eventually { try await daemon.scheduleState(id) == ("done", ["done"]) })
        }
    }

    @Test("a scheduled push that does not validate is refused at once, and nothing is planned")
    func invalidPushIsRefused() async throws {
        let clock = ManualClock()
        let state = try TemporarySpecFolder(prefix: "livery-schedule-state")
        try await TestDaemon.with(configure: {
            $0.scheduleClock = clock; $0.stateDirectory = state.url
        }) { daemon in
            let reply = try await daemon.schedule([
                "action": "push", "at": ScheduleTime.text(of: clock.now.addingTimeInterval(60)),
                "files": ["card.yaml": "specs:\n  card:\n    - { type: NoSuchTrait }\n"],
            ])
            #expect(reply.status == 422, "\(reply.text)")
            let past = try await daemon.schedule([
                "action": "push", "at": ScheduleTime.text(of: clock.now.addingTimeInterval(-60)),
                "files": ["palette.yaml": "variables: {}\n"],
            ])
            #expect(past.status == 400 && past.text.contains("past"), "\(past.text)")
            let changes = try await daemon.http.get("/v1/schedule").json()["changes"] as? [Any]
            #expect(changes?.isEmpty == true)
        }
    }

    @Test("a cancelled push never runs; cancelling it again or an unknown id is refused")
    func cancelledPushNeverRuns() async throws {
        let clock = ManualClock()
        let state = try TemporarySpecFolder(prefix: "livery-schedule-state")
        try await TestDaemon.with(configure: {
            $0.scheduleClock = clock; $0.stateDirectory = state.url
        }) { daemon in
            let id = try await daemon.schedulePush(accent: Self.accent, at: clock.now.addingTimeInterval(60))
            let cancelled = try await daemon.http.delete("/v1/schedule/\(id)")
            #expect(cancelled.status == 200)
            #expect(try cancelled.json()["state"] as? String == "cancelled")
            clock.advance(by: 120)
            try await Task.sleep(for: .milliseconds(300))
            #expect(try !Self.palette(daemon).contains(Self.accent))
            #expect(try await daemon.scheduleState(id) == ("cancelled", ["cancelled"]))
            #expect(try await daemon.http.delete("/v1/schedule/\(id)").status == 409)
            #expect(try await daemon.http.delete("/v1/schedule/0123456789abcdef").status == 404)
        }
    }

    /// A folder daemon, stopped after planning a push of the orange accent ten minutes ahead:
    /// the clock, the folder, the configuration of every daemon on it (with the grace of an
    /// hour), the change's id, and the state folder to keep alive.
    static func plannedThenStopped() async throws -> (
        ManualClock, TemporarySpecFolder, (inout DaemonConfiguration) -> Void, String, TemporarySpecFolder
    ) {
        let clock = ManualClock()
        let folder = try TemporarySpecFolder(prefix: "livery-schedule")
        try TestDaemon.writeExample(to: folder)
        let state = try TemporarySpecFolder(prefix: "livery-schedule-state")
        let configure: (inout DaemonConfiguration) -> Void = {
            $0.scheduleClock = clock
            $0.stateDirectory = state.url
            $0.scheduleGrace = .seconds(3600)
        }
        let id = try await TestDaemon.with(folder: folder, configure: configure) { daemon in
            try await daemon.schedulePush(accent: Self.accent, at: clock.now.addingTimeInterval(600))
        }
        return (clock, folder, configure, id, state)
    }

    @Test("a step due while the daemon was stopped runs once at the restart within the grace")
    func missedStepRunsOnceWithinTheGrace() async throws {
        let (clock, folder, configure, id, state) = try await Self.plannedThenStopped()
        clock.advance(by: 600 + 1800)  // half an hour late
        try await TestDaemon.with(folder: folder, configure: configure) { daemon in
            let pushed = try await TestDaemon.eventually { try Self.palette(daemon).contains(Self.accent) }
            #expect(pushed)
            let done = try await TestDaemon.eventually { try await daemon.scheduleState(id) == ("done", ["done"]) }
            #expect(done)
        }
        // An edit on disk after the push: a step run a second time would undo it.
        try TestDaemon.writeExample(to: folder, accent: "#123456")
        try await TestDaemon.with(folder: folder, configure: configure) { daemon in
            try await Task.sleep(for: .milliseconds(300))
            #expect(try Self.palette(daemon).contains("#123456"))
            #expect(try await daemon.scheduleState(id) == ("done", ["done"]))
        }
        withExtendedLifetime(state) {}
    }

    @Test("a step due longer ago than the grace is reported missed and never runs")
    func stepPastTheGraceIsMissed() async throws {
        let (clock, folder, configure, id, state) = try await Self.plannedThenStopped()
        clock.advance(by: 600 + 3601)
        try await TestDaemon.with(folder: folder, configure: configure) { daemon in
            #expect(try await TestDaemon.eventually { try await daemon.scheduleState(id) == ("missed", ["missed"]) })
            let detail = try await daemon.scheduled(id)?["detail"] as? String
            #expect(detail?.contains("beyond the grace") == true, "\(detail ?? "no detail")")
            #expect(try !Self.palette(daemon).contains(Self.accent))
        }
        withExtendedLifetime(state) {}
    }
}
