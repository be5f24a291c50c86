import NIOCore

/// A long-poll held by a ``BundleRequestHandler``, as one of the hub's waiting clients: it
/// passes the hub's news to the handler on the handler's event loop.
final class LongPollWaiter: BundleSubscriber {
    let id: Int
    let waitsForSignal: Bool
    private let handler: NIOLoopBound<BundleRequestHandler>

    init(id: Int, handler: NIOLoopBound<BundleRequestHandler>, waitsForSignal: Bool) {
        self.id = id
        self.handler = handler
        self.waitsForSignal = waitsForSignal
    }

    func deliver(_ snapshot: BundleSnapshot) {
        handler.eventLoop.execute { [handler, id] in handler.value.bundlePublished(snapshot, waiter: id) }
    }

    func close() {
        handler.eventLoop.execute { [handler, id] in handler.value.waitEnded(waiter: id) }
    }
}
