/// The `wait` query parameter of a long-poll: `30s`, `30` (seconds), `500ms`, `2m`.
@_spi(LiveryInternal) public enum WaitDuration {
    /// The longest wait a client may ask for: longer holds only tie up connections that proxies
    /// would cut anyway.
    public static let maximum: Duration = .seconds(300)

    /// Parses `text`; `nil` if it is not a non-negative number with an optional `ms`, `s` or `m`.
    /// Values above ``maximum`` are clamped to it.
    public static func parse(_ text: some StringProtocol) -> Duration? {
        let text = String(text).lowercased()
        let units: [(suffix: String, milliseconds: Double)] = [("ms", 1), ("s", 1000), ("m", 60_000)]
        var number = Substring(text)
        var scale = 1000.0
        for unit in units where text.hasSuffix(unit.suffix) {
            number = text.dropLast(unit.suffix.count)
            scale = unit.milliseconds
            break
        }
        guard !number.isEmpty, number.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
            let value = Double(number), value.isFinite, value >= 0
        else { return nil }
        let milliseconds = min(value * scale, Double(maximum.components.seconds) * 1000)
        return .milliseconds(Int64(milliseconds.rounded()))
    }

    /// `duration` spread by up to ±`fraction` (10 % by default), never above ``maximum``, so that
    /// clients that started together do not all come back in the same instant.
    public static func jittered(_ duration: Duration, fraction: Double = 0.1) -> Duration {
        var generator = SystemRandomNumberGenerator()
        let factor = fraction > 0 ? Double.random(in: (1 - fraction)...(1 + fraction), using: &generator) : 1
        return min(duration * factor, maximum)
    }
}
