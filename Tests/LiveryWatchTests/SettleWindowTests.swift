import Testing

@testable import LiveryWatch

@Suite struct SettleWindowTests {
    let start = ContinuousClock.now

    @Test func nothingPendingHasNoDeadline() {
        let window = SettleWindow(window: .milliseconds(20), maximumWindows: 10)
        #expect(window.deadline() == nil)
        #expect(!window.isCapped)
    }

    @Test func aSingleEventIsScannedOneWindowLater() {
        var window = SettleWindow(window: .milliseconds(20), maximumWindows: 10)
        window.record(at: start)
        #expect(window.deadline() == start + .milliseconds(20))
        #expect(!window.isCapped)
    }

    @Test func eachEventPushesTheDeadlineToOneWindowAfterIt() {
        var window = SettleWindow(window: .milliseconds(20), maximumWindows: 10)
        window.record(at: start)
        window.record(at: start + .milliseconds(15))
        #expect(window.deadline() == start + .milliseconds(35))
    }

    @Test func aNeverEndingBurstIsCapped() {
        var window = SettleWindow(window: .milliseconds(20), maximumWindows: 10)
        for step in 0...30 { window.record(at: start + .milliseconds(10 * step)) }
        #expect(window.deadline() == start + .milliseconds(200))
        #expect(window.isCapped)
    }

    @Test func anOpenWriterHoldsTheScanUntilTheCap() {
        var window = SettleWindow(window: .milliseconds(20), maximumWindows: 10)
        window.record(at: start)
        window.record(at: start + .milliseconds(5))
        #expect(window.deadline(writingSince: start + .milliseconds(5)) == start + .milliseconds(205))
        #expect(window.deadline() == start + .milliseconds(25))
    }

    @Test func anOpenWritersCapCountsFromItsWriteNotFromTheBurstsStart() {
        var window = SettleWindow(window: .milliseconds(20), maximumWindows: 10)
        window.record(at: start)  // an earlier save, already published by the fast path
        window.record(at: start + .milliseconds(190))  // a file truncated in place
        #expect(window.deadline(writingSince: start + .milliseconds(190)) == start + .milliseconds(390))
    }

    @Test func resetForgetsTheBurst() {
        var window = SettleWindow(window: .milliseconds(20), maximumWindows: 10)
        window.record(at: start)
        window.reset()
        #expect(window.deadline() == nil)
        window.record(at: start + .seconds(1))
        #expect(window.deadline() == start + .seconds(1) + .milliseconds(20))
    }
}
