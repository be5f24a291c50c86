import Hummingbird
@_spi(LiveryInternal) import LiveryHTTP
import NIOCore
import NIOHTTPTypes

/// Answers `GET /v1/spec` (plain and conditional GETs, and long-polls), `/v1/spec/{etag}` and
/// the version signal `/v1/version` on the connection's event loop, ahead of Hummingbird's router.
///
/// Why: the bundle is what every client asks for, thousands of times a second from a polling
/// fleet, and what every long-poll holds open. Through the router, each request costs a hop
/// into the connection's task, a `Request` and the middleware chain; and a connection whose
/// task has run a handler keeps that task's grown stack for as long as it stays open (25 kB a
/// connection against 12 kB for one that has served nothing: figure 6). Here a 304 is a
/// pre-built head written from the event loop, and a waiting long-poll is one small
/// ``LongPollWaiter`` in the hub and one timer.
///
/// Every `GET` and `HEAD` of `/v1/spec`, `/v1/spec/{etag}`, `/v1/css`, `/v1/css/{etag}` and
/// `/v1/version` is answered here,
/// by ``BundleDecision``: 200, 304, long-polls (the version signal waits the same way), 400 for
/// a bad `wait=`, 404 for a version not kept, 503 before the first bundle. Every request the
/// parser reads passes here, so here too each head goes through the ``RequestGate`` (`Host`,
/// read token, held-request budget), whose refusals are answered here, and its `Livery-Client`
/// header is recorded (only with a read token, when one is required). What goes on to the
/// router is everything else, and heads over the daemon's limits. Responses leave in request
/// order: a request for the bundle pipelined behind requests the router is still answering
/// waits for their answers, and parts pipelined behind one answered here wait until it is.
/// While the client does not read its answers (the channel is not writable), the parts that
/// arrive wait too, up to ``maxQueuedParts``.
final class BundleRequestHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// The most request parts held back behind a request answered here, or while the client
    /// reads no answer: a client pipelining more than that is closed rather than buffered.
    static let maxQueuedParts = 64

    private let environments: Environments
    private let metrics: ServerMetrics
    private let limits: RequestHeadLimits
    private let gate: RequestGate
    /// The client's address, its key in the connection budget.
    private let peer: String
    /// For each request handed to the router and not answered yet, whether it holds one of
    /// the budget's held requests (an event stream).
    private var routedHolds = CircularBuffer<Bool>()
    private let crossOrigin: CrossOriginPolicy
    private var context: ChannelHandlerContext?
    private var date = HTTPDateText()
    /// Requests handed to the router whose responses have not ended yet.
    private var routedPending = 0
    /// Whether the parts now arriving belong to a request handed to the router.
    private var isRouting = false
    /// Whether parts went to the router since the last read-complete passed on (the router's
    /// channel delivers what it buffered only on read-complete).
    private var routedSinceReadComplete = false
    /// The request answered here, from its head to the end of its response.
    private var current: BundleRequest?
    /// Parts that arrived while `current` was being answered.
    private var queued = CircularBuffer<HTTPRequestPart>()

    init(
        environments: Environments, metrics: ServerMetrics, limits: RequestHeadLimits, gate: RequestGate,
        peer: String, crossOrigin: CrossOriginPolicy
    ) {
        self.environments = environments
        self.crossOrigin = crossOrigin
        self.metrics = metrics
        self.limits = limits
        self.gate = gate
        self.peer = peer
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        endCurrent()
        giveBackRoutedHolds()
        self.context = nil
    }

    func channelInactive(context: ChannelHandlerContext) {
        endCurrent()
        giveBackRoutedHolds()
        queued.removeAll()
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let part = unwrapInboundIn(data)
        guard current?.isRead != true, queued.isEmpty, context.channel.isWritable else {
            guard queued.count < Self.maxQueuedParts else {
                context.close(promise: nil)
                return
            }
            queued.append(part)
            return
        }
        take(part, context: context)
    }

    /// The client reads its answers again: the parts that waited go on.
    func channelWritabilityChanged(context: ChannelHandlerContext) {
        context.fireChannelWritabilityChanged()
        if context.channel.isWritable { takeQueued(context: context) }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        routedSinceReadComplete = false
        context.fireChannelReadComplete()
    }

    /// The router's responses: count their ends, so the order of answers is kept.
    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard case .end = unwrapOutboundIn(data) else { return context.write(data, promise: promise) }
        routedPending -= 1
        if routedHolds.popFirst() == true { gate.budget.giveBackHeld(peer) }
        context.write(data, promise: promise)
        // The request for the bundle that waited behind the router's answers goes next.
        if routedPending == 0, let request = current, request.isRead, !request.isStarted {
            start(context: context)
        }
    }

    private func take(_ part: HTTPRequestPart, context: ChannelHandlerContext) {
        switch part {
        case .head(let head):
            // Every request the parser reads passes here, for the bundle or for the router.
            let bundle = BundleRequest(head, limits: limits)
            let authenticated: Bool
            switch gate.admit(head, isBundle: bundle != nil, from: peer) {
            case .refused(let problem, let closing):
                current = BundleRequest(head, refusedWith: problem, closing: closing)
                return
            case .admitted(let carriesToken):
                authenticated = carriesToken
            }
            // The environment the path addresses; an unknown one is the router's 404.
            let path = BundleRequest.path(of: head)
            let set = environments.addressed(byPath: path)
            if authenticated || !gate.admission.requiresToken {
                set?.clients.record(head.headerFields[values: .liveryClient], readsOFREP: RequestGate.isOFREP(path))
            }
            if let set, var request = bundle {
                request.disclosesPlaces = gate.places.discloses(to: head.headerFields[.authorization])
                request.hub = set.hub
                request.environment = set.name
                current = request
            } else {
                let holds = RequestGate.opensEventStream(head)
                if holds, !gate.budget.takeHeld(peer) {
                    current = BundleRequest(head, refusedWith: .tooManyHeld, closing: true)
                    return
                }
                routedHolds.append(holds)
                routedPending += 1
                isRouting = true
                if Self.hasLargeBody(head) {
                    try? DaemonHTTPChannel.setReadSize(DaemonHTTPChannel.bodyReadBytes, of: context.channel)
                }
                passToRouter(part, context: context)
            }
        case .body:
            // A body sent with a GET of the bundle is read and dropped.
            if isRouting { passToRouter(part, context: context) }
        case .end:
            if isRouting {
                isRouting = false
                try? DaemonHTTPChannel.setReadSize(DaemonHTTPChannel.readBytes, of: context.channel)
                passToRouter(part, context: context)
            } else if current != nil {
                current?.isRead = true
                if routedPending == 0 { start(context: context) }
            }
        }
    }

    private func passToRouter(_ part: HTTPRequestPart, context: ChannelHandlerContext) {
        routedSinceReadComplete = true
        context.fireChannelRead(wrapInboundOut(part))
    }

    /// The request is read whole and its turn has come: answer it now, or start its long-poll.
    private func start(context: ChannelHandlerContext) {
        guard let request = current else { return }
        current?.isStarted = true
        guard case .bundle(let query) = request.kind else {
            if case .refusal(let answer) = request.kind { respond(answer, context: context) }
            return
        }
        let state = bundleState(for: query, of: request)
        guard case .wait(let wait) = BundleDecision.decide(query, state: state, mayWait: true) else {
            return respond(BundleDecision.respond(to: query, state: state), context: context)
        }
        guard gate.budget.takeHeld(peer) else {
            current = BundleRequest(method: query.isHead ? .head : .get, refusedWith: .tooManyHeld, closing: true)
            return start(context: context)
        }
        current?.holdsBudget = true
        let handler = NIOLoopBound(self, eventLoop: context.eventLoop)
        let isSignal = if case .versionSignal = query.resource { true } else { false }
        guard
            let (waiter, now) = request.hub?.subscribe({
                LongPollWaiter(id: $0, handler: handler, waitsForSignal: isSignal)
            })
        else {
            return waitEnded(waiter: nil)  // shutting down
        }
        current?.waiter = waiter
        // Decided again at subscription time: a bundle published in between must not be missed.
        if let now, case .respond(let answer) = BundleDecision.decide(query, state: .loaded(now), mayWait: true) {
            return respond(answer, context: context)
        }
        current?.timer = context.eventLoop.assumeIsolated().scheduleTask(in: TimeAmount(WaitDuration.jittered(wait))) {
            [self] in waitEnded(waiter: waiter.id)
        }
    }

    /// The hub published a bundle while long-poll `id` waited.
    func bundlePublished(_ snapshot: BundleSnapshot, waiter id: Int) {
        guard let context, let request = current, request.waiter?.id == id, case .bundle(let query) = request.kind
        else { return }
        if case .respond(let answer) = BundleDecision.decide(query, state: .loaded(snapshot), mayWait: true) {
            respond(answer, context: context)
        }
    }

    /// Long-poll `id` ran out of time, or the daemon is shutting down (`id` is `nil` when it
    /// was before the request could wait): the answer without waiting.
    func waitEnded(waiter id: Int?) {
        guard let context, let request = current, request.waiter?.id == id, case .bundle(let query) = request.kind
        else { return }
        respond(BundleDecision.respond(to: query, state: bundleState(for: query, of: request)), context: context)
    }

    /// The hub's state for `query`, its places as `request` may read them.
    private func bundleState(for query: BundleQuery, of request: BundleRequest) -> BundleState {
        guard let hub = request.hub else { return .unavailable([]) }
        return gate.places.shown(hub.bundleState(for: query), disclosing: request.disclosesPlaces)
    }

    private func respond(_ answer: BundleResponse, context: ChannelHandlerContext) {
        guard let request = current else { return }
        endCurrent()
        var fields = answer.fields
        fields[.date] = date.now()
        fields.add(
            crossOrigin: crossOrigin.answerFields(
                origin: request.origin, method: request.method, path: String(request.path)))
        context.write(wrapOutboundOut(.head(HTTPResponse(status: answer.status, headerFields: fields))), promise: nil)
        if let body = answer.body { context.write(wrapOutboundOut(.body(body)), promise: nil) }
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        metrics.recordRequest(
            route: request.route, environment: request.environment, method: request.method,
            status: answer.status.code, duration: .now - request.start)
        if request.closesConnection {
            context.close(promise: nil)
        } else {
            takeQueued(context: context)
        }
    }

    /// Takes the parts that waited behind the request just answered, until one of them is
    /// answered here in turn.
    private func takeQueued(context: ChannelHandlerContext) {
        while current?.isRead != true, context.channel.isWritable, let part = queued.popFirst() {
            take(part, context: context)
        }
        if routedSinceReadComplete {
            routedSinceReadComplete = false
            context.fireChannelReadComplete()
        }
    }

    /// Whether `head` announces a body of at least a large read (a push): its bytes are read in
    /// large reads. Not a smaller or chunked one, whose reads could bring a large read's worth of
    /// pipelined requests behind it.
    private static func hasLargeBody(_ head: HTTPRequest) -> Bool {
        (head.headerFields[.contentLength].flatMap { Int($0) } ?? 0) >= DaemonHTTPChannel.bodyReadBytes
    }

    /// Leaves the hub and stops the timer of the current request, and forgets it.
    private func endCurrent() {
        guard let request = current else { return }
        current = nil
        request.timer?.cancel()
        if let waiter = request.waiter { request.hub?.unsubscribe(waiter.id) }
        if request.holdsBudget { gate.budget.giveBackHeld(peer) }
    }

    /// Gives back the held requests of the event streams the router has not ended: the
    /// connection is gone.
    private func giveBackRoutedHolds() {
        for holds in routedHolds where holds { gate.budget.giveBackHeld(peer) }
        routedHolds.removeAll()
    }
}
