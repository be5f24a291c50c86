#if canImport(Glibc)
import Glibc
#endif

/// The text of a `Date` header (RFC 9110 §5.6.7, IMF-fixdate: `Sun, 06 Nov 1994 08:49:37 GMT`),
/// formatted at most once a second by whoever keeps the value.
struct HTTPDateText {
    private var second = -1
    private var text = ""

    /// The current time's text.
    mutating func now() -> String {
        let current = Self.currentSecond()
        if current != second {
            second = current
            text = Self.format(secondsSince1970: current)
        }
        return text
    }

    /// Seconds since 1970 on the wall clock, which is what `Date` shows.
    static func currentSecond() -> Int {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return time.tv_sec
    }

    static func format(secondsSince1970 seconds: Int) -> String {
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func twoDigits(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return
            "\(days[Int(parts.tm_wday)]), \(twoDigits(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(parts.tm_year + 1900) "
            + "\(twoDigits(parts.tm_hour)):\(twoDigits(parts.tm_min)):\(twoDigits(parts.tm_sec)) GMT"
    }
}
