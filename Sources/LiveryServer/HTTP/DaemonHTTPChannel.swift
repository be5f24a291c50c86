import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1
import NIOSSL
import Prometheus

/// The daemon's HTTP/1.1 connections: Hummingbird's `HTTP1Channel` pipeline, with the bundle's
/// raw and event-loop paths for the bundle, and the request deadline.
///
/// In order: TLS (with `--tls-cert`: the context of the certificate files as they are when the
/// connection arrives, see ``TLSCertificateStore``), ``RawBundleHandler`` (plain GETs of the bundle answered from the raw bytes), the
/// HTTP parser and encoder, Hummingbird's connection-state handler (graceful shutdown),
/// ``IdleTimeoutHandler``, ``RequestDeadlineHandler``, ``BundleRequestHandler`` (the other GETs
/// of the bundle, long-polls included), then Hummingbird's router. Hummingbird's own
/// `additionalChannelHandlers` would go in front of its connection-state handler, which would
/// then not see the requests answered on those paths; hence this copy of its setup.
struct DaemonHTTPChannel: ServerChildChannel, HTTPChannelHandler {
    typealias Value = NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>

    let responder: HTTPChannelHandler.Responder
    let configuration: DaemonConfiguration
    let environments: Environments
    let metrics: ServerMetrics
    let tls: TLSCertificateStore?
    let gate: RequestGate

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        channel.eventLoop.makeCompletedFuture {
            // Over the connection limits: closed as soon as accepted, as nginx does.
            let peer = channel.remoteAddress?.ipAddress ?? "unknown"
            guard gate.budget.takeConnection(peer) else {
                metrics.refusedConnections.increment()
                channel.close(promise: nil)
                throw ConnectionRefused()
            }
            channel.closeFuture.whenComplete { [budget = gate.budget] _ in budget.giveBackConnection(peer) }
            // One read of at most `readBytes` per connection each time the event loop polls:
            // what a read brings is handled before the loop serves another connection, so one
            // client pipelining requests gets as many turns as everyone else, not a loop's worth.
            let options = channel.syncOptions
            try options?.setOption(.maxMessagesPerRead, value: 1)
            try Self.setReadSize(Self.readBytes, of: channel)
            // The parser's own limits sit at 4× the daemon's request-head limits: heads between
            // the two get a proper 414 or 431 (RequestHeadLimits), and only absurd ones are cut
            // off by the parser (400 and close), so nobody can make it buffer more.
            var parserLimits = NIOHTTPDecoderLimitConfiguration()
            parserLimits.maxHeaderFieldSize = configuration.parserHeadCeiling
            parserLimits.maxHeaderListSize = configuration.parserHeadCeiling
            let pipeline = channel.pipeline.syncOperations
            let idleTimeout = configuration.idleTimeout.map { IdleTimeoutHandler(timeout: $0) }
            if let tls { try pipeline.addHandler(NIOSSLServerHandler(context: tls.context())) }
            let defaultSet = environments.defaultSet
            try pipeline.addHandler(
                RawBundleHandler(
                    hub: defaultSet?.hub, environment: defaultSet?.name ?? "", admission: gate.admission,
                    answersRequests: !configuration.allowedOrigins.isEnabled,
                    metrics: metrics, maxHeadBytes: min(configuration.maxHeaderBytes, configuration.maxURIBytes),
                    idleTimeout: idleTimeout))
            try pipeline.configureHTTPServerPipeline(
                withPipeliningAssistance: false,  // NIOAsyncChannel and BundleRequestHandler keep the order
                withErrorHandling: false,  // Hummingbird answers parser errors
                withOutboundHeaderValidation: false,  // HTTPTypes validates
                withEncoderConfiguration: .init(),
                withDecoderLimitConfiguration: parserLimits)
            try pipeline.addHandler(HTTP1ToHTTPServerCodec(secure: tls != nil))
            // Hummingbird's handler only for graceful shutdown (close once the answers in
            // progress are written); the idle timeout must also count RawBundleHandler's answers.
            try pipeline.addHandler(HTTPConnectionStateHandler(idleTimeout: nil, logger: logger))
            if let idleTimeout { try pipeline.addHandler(idleTimeout) }
            if let requestTimeout = configuration.requestTimeout {
                try pipeline.addHandler(RequestDeadlineHandler(timeout: requestTimeout, metrics: metrics))
            }
            try pipeline.addHandler(
                BundleRequestHandler(
                    environments: environments, metrics: metrics, limits: RequestHeadLimits(configuration), gate: gate,
                    peer: peer, crossOrigin: configuration.allowedOrigins))
            return try NIOAsyncChannel(
                wrappingChannelSynchronously: channel, configuration: .init(isOutboundHalfClosureEnabled: true))
        }
    }

    func handle(value: Value, logger: Logger) async {
        await handleHTTP(asyncChannel: value, logger: logger)
    }

    /// The most bytes read from a connection at once: a few requests of any size, and at most a
    /// hundred of the shortest (about 40 bytes each).
    static let readBytes = 1024
    /// The most bytes read at once while a request body arrives: a body's bytes cost next to
    /// nothing each, and a push of 1 MiB (or a 50 MB one to refuse) read by the KiB would take
    /// a thousand polls.
    static let bodyReadBytes = 64 * 1024

    /// Reads `channel` by at most `bytes` from now on.
    static func setReadSize(_ bytes: Int, of channel: any Channel) throws {
        try channel.syncOptions?.setOption(.recvAllocator, value: FixedSizeRecvByteBufferAllocator(capacity: bytes))
    }

    /// A connection over the limits, closed before any handler was added.
    struct ConnectionRefused: Error {}
}
