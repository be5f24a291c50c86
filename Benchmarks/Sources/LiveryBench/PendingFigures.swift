/// Figures not measured yet: each is a figure already, returning a row that says so and gives
/// no number. Figure 2 needs a push → client-applied timing over loopback.
///
/// To fill one in, replace its `run` with a function that measures (the baseline in the same
/// run, as `Measure.pair` does for in-process work, or by timing the external tool) and returns
/// `Row.timed(…)` rows.
enum PendingFigures {
    static let remoteReload = Figure(number: "2", title: "Remote reload") { _ in
        [
            .pending(
                "2", "PUT /v1/specs/… → applied in a RemoteSpecSource client (long-poll / SSE)",
                baseline: "the same PUT answered by livery serve alone", target: "see issue 6",
                needs: "LiveryServer and LiveryRemote")
        ]
    }
}
