/// A waiting client as the ``BundleHub`` sees it: a long-poll or an event stream, told of each
/// new bundle and of the hub closing (graceful shutdown). Both calls come from the hub's task
/// and must only hand the news on, never block.
protocol BundleSubscriber: Sendable {
    /// A bundle with a new entity tag was published.
    func deliver(_ snapshot: BundleSnapshot)
    /// The hub closed: the daemon is shutting down.
    func close()
    /// Whether this is a wait for the version signal, told of a new version only once it is
    /// signed (``BundleHub/prepareSignals(_:)``) and the fronts have it (``FrontWarmer``).
    var waitsForSignal: Bool { get }
}

extension BundleSubscriber {
    var waitsForSignal: Bool { false }
}

extension Subscription: BundleSubscriber {}
