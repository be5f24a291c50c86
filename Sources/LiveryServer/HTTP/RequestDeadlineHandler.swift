import Hummingbird
import NIOCore
import NIOHTTPTypes

/// Gives each request a deadline for arriving whole: from its head to the end of its body, at
/// most `timeout`; past it the client gets 408 and the connection is closed.
///
/// The idle timeout restarts with every part read, so without this a client sending a body a
/// byte at a time (slow POST, a slowloris on the body) would hold its connection for ever.
/// A slow head is the idle timeout's job: no part is read until the head is whole.
final class RequestDeadlineHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let timeout: Duration
    private let metrics: ServerMetrics
    private var deadline: Scheduled<Void>?
    /// Whether a response head went out since the request being read began: then a 408 would
    /// come in the middle of it, and the connection is only closed.
    private var isAnswering = false

    init(timeout: Duration, metrics: ServerMetrics) {
        self.timeout = timeout
        self.metrics = metrics
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            deadline?.cancel()
            isAnswering = false
            deadline = context.eventLoop.assumeIsolated().scheduleTask(in: TimeAmount(timeout)) { [self] in
                expire(context: context)
            }
        case .body:
            break
        case .end:
            deadline?.cancel()
            deadline = nil
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .head = unwrapOutboundIn(data) { isAnswering = deadline != nil }
        context.write(data, promise: promise)
    }

    func channelInactive(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
    }

    private func expire(context: ChannelHandlerContext) {
        deadline = nil
        metrics.recordRequest(route: "unfinished", environment: "", method: "-", status: 408, duration: timeout)
        guard !isAnswering else {
            context.close(promise: nil)
            return
        }
        let body = JSONBody.encode(
            Problem(
                kind: .requestTimeout, detail: "the request did not arrive whole within \(timeout.components.seconds) s"
            ))
        var fields = HTTPFields()
        fields[.contentType] = "application/problem+json"
        fields[.contentLength] = String(body.readableBytes)
        fields[.connection] = "close"
        context.write(wrapOutboundOut(.head(HTTPResponse(status: .requestTimeout, headerFields: fields))), promise: nil)
        context.write(wrapOutboundOut(.body(body)), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in
            context.close(promise: nil)
        }
    }
}
