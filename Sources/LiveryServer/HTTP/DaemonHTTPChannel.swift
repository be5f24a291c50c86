import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1

/// The daemon's HTTP/1.1 connections: Hummingbird's `HTTP1Channel` pipeline, with the request
/// deadline and the bundle's fast path after the connection-state handler.
///
/// Hummingbird's own `additionalChannelHandlers` go in front of its connection-state handler,
/// which would then never see the requests answered on the fast path: the idle timeout would
/// cut busy connections and graceful shutdown would not wait for long-polls. Hence this copy of
/// its setup with the handlers in the right place.
struct DaemonHTTPChannel: ServerChildChannel, HTTPChannelHandler {
    typealias Value = NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>

    let responder: HTTPChannelHandler.Responder
    let configuration: DaemonConfiguration
    let hub: BundleHub
    let metrics: ServerMetrics

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        channel.eventLoop.makeCompletedFuture {
            // The parser's own limits sit at 4× the daemon's request-head limits: heads between
            // the two get a proper 414 or 431 (RequestHeadLimits), and only absurd ones are cut
            // off by the parser (400 and close), so nobody can make it buffer more.
            var parserLimits = NIOHTTPDecoderLimitConfiguration()
            parserLimits.maxHeaderFieldSize = configuration.parserHeadCeiling
            parserLimits.maxHeaderListSize = configuration.parserHeadCeiling
            let pipeline = channel.pipeline.syncOperations
            try pipeline.configureHTTPServerPipeline(
                withPipeliningAssistance: false,  // NIOAsyncChannel and BundleRequestHandler keep the order
                withErrorHandling: false,  // Hummingbird answers parser errors
                withOutboundHeaderValidation: false,  // HTTPTypes validates
                withEncoderConfiguration: .init(),
                withDecoderLimitConfiguration: parserLimits)
            try pipeline.addHandler(HTTP1ToHTTPServerCodec(secure: false))
            try pipeline.addHandler(
                HTTPConnectionStateHandler(idleTimeout: configuration.idleTimeout, logger: logger))
            if let requestTimeout = configuration.requestTimeout {
                try pipeline.addHandler(RequestDeadlineHandler(timeout: requestTimeout, metrics: metrics))
            }
            try pipeline.addHandler(
                BundleRequestHandler(hub: hub, metrics: metrics, limits: RequestHeadLimits(configuration)))
            return try NIOAsyncChannel(
                wrappingChannelSynchronously: channel, configuration: .init(isOutboundHalfClosureEnabled: true))
        }
    }

    func handle(value: Value, logger: Logger) async {
        await handleHTTP(asyncChannel: value, logger: logger)
    }
}
