import Foundation
@_spi(LiveryInternal) import LiveryHTTP

/// The body of `POST /v1/schedule`:
/// `{"action": "push", "at": "2026-12-02T18:00:00Z", "files": {…}, "message": "…"}`,
/// `{"action": "rollout", "at": "…", "percent": 25}`,
/// `{"action": "progressive", "files": {…}, "percents": [1, 10, 50, 100], "every": "30m", "at": "…"}`
/// (the first step at `at`, now when absent) or with explicit
/// `"steps": [{"at": "…", "percent": 1}, …]`, or
/// `{"action": "promotion", "at": "…", "from": "staging", "revision": 12 or "etag": "…", "message": "…"}`
/// (the source's version as `POST …/promotions` reads it, its newest revision by default).
struct ScheduleRequest: Decodable {
    enum Action: String, Decodable {
        case push, rollout, progressive, promotion
    }

    /// One step as the request names it.
    struct Step: Decodable {
        var at: String
        var percent: RolloutShare
    }

    var action: Action
    var at: String?
    var files: [String: String?]?
    var message: String?
    var percent: RolloutShare?
    var percents: [RolloutShare]?
    var every: String?
    var steps: [Step]?
    /// A promotion's source, and its version.
    var from: String?
    var revision: Int64?
    var etag: String?
    /// Read only to refuse it: a promotion publishes at its time, it starts no rollout.
    var rollout: RolloutShare?

    /// Refuses the fields that do not go with the action: a promotion's files come from its
    /// source, and only a promotion has one.
    func checkFields() throws(ScheduleError) {
        guard action == .promotion else {
            guard from == nil, revision == nil, etag == nil else {
                throw .badRequest(#""from", "revision" and "etag" go with "action": "promotion""#)
            }
            return
        }
        guard from != nil else { throw .badRequest(#""promotion" needs "from": the environment promoted"#) }
        guard files == nil else {
            throw .badRequest(#""promotion" takes the files of "from" at its version: leave out "files""#)
        }
        guard rollout == nil else {
            throw .badRequest(
                #"a scheduled promotion publishes at its time and starts no rollout: leave out "rollout", and plan a progressive rollout ("action": "progressive"), or promote with "rollout" at the time"#
            )
        }
    }

    /// The steps the request plans, checked: times not past and in order, and for a progressive
    /// rollout at least two rising shares ending at 100 %.
    func plannedSteps(now: Date) throws(ScheduleError) -> [ScheduledChange.Step] {
        let steps: [(Date, RolloutShare?)]
        switch action {
        case .push, .promotion: steps = [(try Self.date(at, field: "at"), nil)]
        case .rollout:
            guard let percent else { throw .badRequest(#""rollout" needs "percent": a share from 0 to 100"#) }
            steps = [(try Self.date(at, field: "at"), percent)]
        case .progressive: steps = try progressiveSteps(now: now)
        }
        let earliest = ScheduleTime.wholeSeconds(now)
        for (index, (date, _)) in steps.enumerated() {
            guard date >= earliest else {
                throw .badRequest(
                    "step \(index + 1) at \(ScheduleTime.text(of: date)) is past (now \(ScheduleTime.text(of: now)))")
            }
        }
        return steps.map { date, share in
            ScheduledChange.Step(at: date, percent: share.map { Double($0.basisPoints) / 100 }, state: .planned)
        }
    }

    private func progressiveSteps(now: Date) throws(ScheduleError) -> [(Date, RolloutShare?)] {
        var steps: [(Date, RolloutShare)] = []
        if let explicit = self.steps {
            guard percents == nil, every == nil, at == nil else {
                throw .badRequest(#"give either "steps" or "percents" with "every" (and "at"), not both"#)
            }
            for (index, step) in explicit.enumerated() {
                steps.append((try Self.date(step.at, field: "steps[\(index)].at"), step.percent))
            }
        } else {
            guard let percents, let every else {
                throw .badRequest(#""progressive" needs "steps" or "percents" with "every""#)
            }
            guard let interval = ScheduleTime.interval(parsing: every) else {
                throw .badRequest(#""every" must be a whole number of s, m, h or d, such as 30m, not "# + every)
            }
            let first = try at.map { text throws(ScheduleError) in try Self.date(text, field: "at") }
            let start = first ?? ScheduleTime.wholeSeconds(now)
            steps = percents.enumerated().map { (start.addingTimeInterval(interval * Double($0.offset)), $0.element) }
        }
        guard steps.count >= 2 else { throw .badRequest("a progressive rollout needs at least two steps") }
        for index in steps.indices.dropFirst() {
            guard steps[index].0 > steps[index - 1].0 else {
                throw .badRequest("step \(index + 1) is not after step \(index)")
            }
            guard steps[index].1.basisPoints > steps[index - 1].1.basisPoints else {
                throw .badRequest(
                    "step \(index + 1)'s share is not above step \(index)'s: a progressive rollout widens")
            }
        }
        guard steps[0].1.basisPoints > 0 else { throw .badRequest("the first step's share must be above 0%") }
        guard steps[steps.count - 1].1.basisPoints == Rollout.buckets else {
            throw .badRequest("the last step's share must be 100%: a progressive rollout completes")
        }
        return steps.map { ($0.0, $0.1) }
    }

    private static func date(_ text: String?, field: String) throws(ScheduleError) -> Date {
        guard let text else {
            throw .badRequest(#"""# + field + #"" is missing: an RFC 3339 time such as 2026-12-02T18:00:00Z"#)
        }
        guard let date = ScheduleTime.date(parsing: text) else {
            throw .badRequest(#"""# + field + #"" is not an RFC 3339 time such as 2026-12-02T18:00:00Z: "# + text)
        }
        return date
    }
}
