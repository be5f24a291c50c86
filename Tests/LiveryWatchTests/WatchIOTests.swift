import Testing

/// Every test that drives real files through real inotify is nested in here and runs one at a
/// time: they share the process-wide owner thread, and some count its watches, its threads and
/// its overflows.
@Suite(.serialized, .timeLimit(.minutes(1))) struct WatchIOTests {}
