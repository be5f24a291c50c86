import ArgumentParser
import Foundation
import Livery
import LiveryServer

extension PushCommand {
    /// The shares `--rollout` names: one for a staged rollout, several for a progressive one.
    var shares: [String] { rollout.map { $0.split(separator: ",").map(String.init) } ?? [] }

    /// Whether the daemon keeps the push for later rather than writing it now.
    var isScheduled: Bool { at != nil || shares.count > 1 }

    /// Refuses the schedule options in the wrong company.
    func validateSchedule() throws {
        if let at, ScheduleTime.date(parsing: at) == nil {
            throw ValidationError("--at '\(at)' is not an RFC 3339 time such as 2026-12-02T18:00:00Z")
        }
        if let every, ScheduleTime.interval(parsing: every) == nil {
            throw ValidationError("--every '\(every)' is not a whole number of s, m, h or d, such as 30m")
        }
        let times = stepTimes
        for time in times where ScheduleTime.date(parsing: time) == nil {
            throw ValidationError("--steps '\(time)' is not an RFC 3339 time such as 2026-12-02T18:00:00Z")
        }
        if shares.count > 1 {
            guard (every == nil) != (steps == nil) else {
                throw ValidationError(
                    "a progressive rollout (--rollout \(rollout ?? "")) needs --every or --steps, one of them")
            }
            if steps != nil, times.count != shares.count {
                throw ValidationError(
                    "--steps names \(times.count) times for \(shares.count) shares; give one per share")
            }
            if steps != nil, at != nil { throw ValidationError("--steps gives every step's time; leave out --at") }
        } else if every != nil || steps != nil {
            throw ValidationError("--every and --steps go with several shares: --rollout 1%,10%,50%,100%")
        } else if at != nil, rollout != nil {
            throw ValidationError("--at schedules a push or a progressive rollout (--rollout 1%,…,100% --every 30m)")
        }
        if isScheduled, ifMatch != nil {
            throw ValidationError("--if-match applies to a push made now, not a scheduled one")
        }
        if isScheduled, replace {
            throw ValidationError("--replace applies to a rollout started now, not a scheduled one")
        }
    }

    private var stepTimes: [String] { steps.map { $0.split(separator: ",").map(String.init) } ?? [] }

    /// Sends the files to the daemon's schedule and prints the planned change.
    /// `headers` go with it (`Livery-Signed-Targets`).
    func schedule(
        _ contents: [String: String?], call: DaemonCall, naming: SpecFileNaming, headers: [(String, String)]
    ) async throws {
        var body = DaemonCall.ScheduleBody(
            action: shares.count > 1 ? "progressive" : "push", at: at, files: DaemonCall.FileContents(contents),
            message: message)
        if shares.count > 1 {
            if steps != nil {
                body.steps = zip(stepTimes, shares).map { DaemonCall.ScheduleBody.Step(at: $0, percent: $1) }
            } else {
                body.percents = shares
                body.every = every
            }
        }
        try ScheduleSummary.report(try await call.schedule(body, headers: headers, naming: naming))
    }
}
