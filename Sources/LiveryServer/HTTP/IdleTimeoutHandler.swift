import Hummingbird
import NIOCore
import NIOHTTPTypes

/// Closes a connection that has been idle for `timeout`: no request, half a request head, or
/// a keep-alive connection with no next request. A request whose answer is still being made (a
/// long-poll, an event stream) keeps it open whatever the time.
///
/// The same rules as Hummingbird's `HTTPConnectionStateHandler` idle timeout, which cannot be
/// used here: requests that ``RawBundleHandler`` answers never reach it as HTTP parts, so it
/// would close a connection that is busy with them. This handler also counts those: the raw
/// handler calls ``noteActivity()``.
final class IdleTimeoutHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let timeout: TimeAmount
    private var lastActive = NIODeadline.now()
    private var requestsInProgress = 0
    private var isReadingRequest = false
    private var timer: Scheduled<Void>?

    init(timeout: Duration) {
        self.timeout = TimeAmount(timeout)
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { start(context: context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        start(context: context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        stop()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        stop()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        lastActive = .now()
        switch unwrapInboundIn(data) {
        case .head:
            isReadingRequest = true
            requestsInProgress += 1
        case .body:
            break
        case .end:
            isReadingRequest = false
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) {
            requestsInProgress -= 1
            if requestsInProgress == 0 {
                lastActive = .now()
                schedule(at: lastActive + timeout, context: context)
            }
        }
        context.write(data, promise: promise)
    }

    /// Requests were answered before the HTTP parser (``RawBundleHandler``): the connection is
    /// not idle. Called on the connection's event loop.
    func noteActivity() {
        lastActive = .now()
    }

    private func start(context: ChannelHandlerContext) {
        lastActive = .now()
        schedule(at: lastActive + timeout, context: context)
    }

    private func schedule(at deadline: NIODeadline, context: ChannelHandlerContext) {
        guard timer == nil else { return }
        timer = context.eventLoop.assumeIsolated().scheduleTask(deadline: deadline) { [self] in
            timer = nil
            // A request read whole and still being answered: its end schedules the next check.
            if !isReadingRequest, requestsInProgress > 0 { return }
            if NIODeadline.now() >= lastActive + timeout {
                context.close(promise: nil)
            } else {
                schedule(at: lastActive + timeout, context: context)
            }
        }
    }

    private func stop() {
        timer?.cancel()
        timer = nil
    }
}
