package import Foundation

/// How schedules write times and intervals: RFC 3339 dates (`2026-12-02T18:00:00Z`, an offset
/// or fractional seconds allowed on input) and intervals such as `30m`; the daemon and the
/// command line read them by the same rules.
package enum ScheduleTime {
    /// The date `text` names in RFC 3339, to the second; `nil` for anything else.
    package static func date(parsing text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text).map(wholeSeconds)
    }

    /// `date` in RFC 3339, UTC, to the second.
    package static func text(of date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }

    /// `date` without its fraction of a second: the precision a schedule keeps.
    package static func wholeSeconds(_ date: Date) -> Date {
        Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down))
    }

    /// The interval `text` names: a whole number of seconds, minutes, hours or days (`90s`,
    /// `30m`, `2h`, `1d`), more than zero; `nil` for anything else.
    package static func interval(parsing text: String) -> TimeInterval? {
        let units: [Character: TimeInterval] = ["s": 1, "m": 60, "h": 3600, "d": 86_400]
        guard let unit = text.last.flatMap({ units[$0] }), let count = Int(text.dropLast()), count > 0,
            count <= 366 * 86_400
        else { return nil }
        return TimeInterval(count) * unit
    }
}
