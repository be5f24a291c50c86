import LiveryServer
import LiveryTestSupport

extension ManualClock: ScheduleClock {}
