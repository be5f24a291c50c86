@_spi(LiveryInternal) import LiveryHTTP
import Testing

/// The `wait=` parameter of a long-poll.
@Suite struct WaitDurationTests {
    @Test(arguments: [
        ("30s", Duration.seconds(30)), ("30", .seconds(30)), ("500ms", .milliseconds(500)), ("2m", .seconds(120)),
        ("1.5s", .milliseconds(1500)), ("0", .zero), ("10m", .seconds(300)), ("999999", .seconds(300)),
        ("5S", .seconds(5)),
    ])
    func parses(text: String, expected: Duration) {
        #expect(WaitDuration.parse(text) == expected)
    }

    @Test(arguments: ["", "s", "-1", "1h", "1e3", "ten", "1..2s", "nan", "inf"])
    func refuses(text: String) {
        #expect(WaitDuration.parse(text) == nil)
    }

    @Test func jitterStaysWithinTenPercentAndTheMaximum() {
        for _ in 0..<200 {
            let value = WaitDuration.jittered(.seconds(10))
            #expect(value >= .seconds(9) && value <= .seconds(11))
            #expect(WaitDuration.jittered(.seconds(300)) <= .seconds(300))
        }
    }
}
