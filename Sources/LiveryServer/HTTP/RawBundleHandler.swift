import Hummingbird
@_spi(LiveryInternal) import LiveryHTTP
import NIOCore
import Prometheus

/// Answers a connection's plain `GET` (and `HEAD`) `/v1/spec` and `/v1/css` requests straight from the bytes
/// the client sent, before the HTTP parser runs; from the first request of any other kind on,
/// it hands the connection's bytes to the parser and stands aside for good.
///
/// Why: a fleet of polling clients sends the same conditional GET thousands of times a second,
/// and through NIO's parser, the HTTP types and the handlers each one costs more than twice
/// what the kernel spends on its two system calls (Benchmarks/README.md, figure 3). Here a
/// request is recognised by ``BundleRequestScan``, which accepts only the plainest heads, and
/// answered by ``BundleDecision`` like every other request for the bundle. Its answers about a
/// published bundle come with their heads already rendered (``ResponseHead``, once per
/// version); this handler adds the `Date` once a second per connection, so a request costs
/// the scan, the decision and the writes, with nothing rendered, parsed or allocated for it.
///
/// The connection's idle timeout still sees these requests: each batch answered is reported
/// to the connection's ``IdleTimeoutHandler`` (a direct call: both live on the connection's
/// event loop, and an event through the pipeline cost 4 % of the time).
///
/// A request's `Host` and `Authorization` go to the daemon's ``RequestAdmission`` like those of
/// every parsed request; a request it would refuse is handed to the parser with the rest, and
/// refused there, by the same rule.
///
/// Being the first handler (after TLS), it also paces the whole connection, as NIO servers do
/// with a back-pressure handler: it passes on no `read` while the channel is not writable (the
/// client is not reading its answers) or while it holds requests not yet answered. So a client
/// that pipelines requests and reads nothing makes the daemon hold at most what it had read
/// when its answers stopped draining, on this path, the event-loop one and the router's.
final class RawBundleHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// The default environment's hub; `nil` without one (the router then answers 404).
    private let hub: BundleHub?
    /// The default environment's name, for the metrics.
    private let environment: String
    private let admission: RequestAdmission
    /// Whether it answers requests at all, or only paces the connection: not while an origin is
    /// allowed (`--allow-origin`), since its pre-built answers carry no `Vary: Origin`, which every
    /// answer of a read route then needs (caches must keep browsers' answers apart).
    private let answersRequests: Bool
    private let maxHeadBytes: Int
    private let answeredNotModified: RequestSeries.Series
    private let answeredBundle: RequestSeries.Series
    private let answeredStyleSheetNotModified: RequestSeries.Series
    private let answeredStyleSheet: RequestSeries.Series
    private var handedOver = false
    private var heads = RenderedHeads()
    private var lastAcceptEncoding: (bytes: [UInt8], acceptsGzip: Bool)?
    private let metrics: ServerMetrics
    /// Told of every batch answered, so that it does not take the connection for idle.
    private let idleTimeout: IdleTimeoutHandler?
    /// Bytes read and not answered yet: what arrived while the answers were not draining.
    private var held: ByteBuffer?
    /// A `read` asked for while reading was paused, to pass on when it resumes.
    private var readPending = false
    /// Whether a `read` passed on is under way (until its read-complete).
    private var reading = false
    /// Answering is to resume at the event loop's next turn.
    private var resumeScheduled = false
    /// The channel's `isWritable`, as its writability events tell it: NIO sends one through the
    /// pipeline each time the flag changes. Kept here because asking the channel costs about 70
    /// instructions (the pipeline's reference to it, the existential call), and this
    /// handler asks for every request and every read.
    private var writable = true
    /// The most requests answered in one go, from bytes held while the answers did not drain.
    static let batchSize = 256
    /// The most bytes a connection may have sent beyond what was asked for (a pipelining client
    /// that hung up): the requests of a page's worth of pipelining.
    static let maxUnaskedBytes = 64 * 1024

    init(
        hub: BundleHub?, environment: String, admission: RequestAdmission, answersRequests: Bool = true,
        metrics: ServerMetrics, maxHeadBytes: Int, idleTimeout: IdleTimeoutHandler?
    ) {
        self.hub = hub
        self.environment = environment
        self.admission = admission
        self.answersRequests = answersRequests
        self.idleTimeout = idleTimeout
        self.metrics = metrics
        self.maxHeadBytes = maxHeadBytes
        func series(_ form: BundleForm, _ status: Int) -> RequestSeries.Series {
            metrics.requestSeries(route: form.path, environment: environment, method: "GET", status: status)
        }
        answeredNotModified = series(.bundle, 304)
        answeredBundle = series(.bundle, 200)
        answeredStyleSheetNotModified = series(.styleSheet, 304)
        answeredStyleSheet = series(.styleSheet, 200)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var buffer = unwrapInboundIn(data)
        if var earlier = held.take() {
            earlier.writeBuffer(&buffer)
            buffer = earlier
        }
        // Bytes nobody asked for: once the peer closes or resets the connection, NIO reads it to
        // the end, paused or not, even from within the handling of the read before (a write that
        // finds the connection reset). A flooder leaves megabytes there, which parsing would
        // take seconds over; they wait here for a read to be asked for, and past
        // `maxUnaskedBytes` the connection is closed instead. A read asked for brings one
        // buffer (one read per poll).
        guard reading else {
            held = buffer
            if buffer.readableBytes > Self.maxUnaskedBytes { context.close(promise: nil) }
            return
        }
        reading = false
        if handedOver {
            context.fireChannelRead(wrapInboundOut(buffer))
        } else {
            answer(&buffer, context: context)
        }
    }

    /// The client reads its answers again: answer what was held, and read on, in a task on the
    /// event loop. Not here: this is called from within a flush, and answering at once would
    /// write from inside it. (NIO runs such tasks before it polls again; what gives the other
    /// connections their turns is that each read is small: `DaemonHTTPChannel.readBytes`.)
    func channelWritabilityChanged(context: ChannelHandlerContext) {
        writable = context.channel.isWritable
        if writable { resumeLater(context: context) }
        context.fireChannelWritabilityChanged()
    }

    private func resumeLater(context: ChannelHandlerContext) {
        guard !resumeScheduled else { return }
        resumeScheduled = true
        context.eventLoop.assumeIsolated().execute { [self] in
            resumeScheduled = false
            guard context.channel.isActive, writable else { return }
            if var buffer = held.take() {
                if handedOver {
                    context.fireChannelRead(wrapInboundOut(buffer))
                    context.fireChannelReadComplete()
                } else {
                    answer(&buffer, context: context)
                }
            }
            if held == nil, readPending {
                readPending = false
                reading = true
                context.read()
            }
        }
    }

    /// Reads only while the answers drain and nothing is held; bytes held go first.
    func read(context: ChannelHandlerContext) {
        guard writable, held == nil else {
            readPending = true
            if writable { resumeLater(context: context) }
            return
        }
        reading = true
        context.read()
    }

    /// Answers the plain bundle requests at the start of `buffer` while the client reads its
    /// answers; holds the rest when it stops, and hands it to the parser from the first request
    /// of another kind.
    private func answer(_ buffer: inout ByteBuffer, context: ChannelHandlerContext) {
        var answered = 0
        while buffer.readableBytes > 0, let snapshot = hub?.snapshot {
            guard writable, answered < Self.batchSize else {
                held = buffer
                // A full batch: the rest at the loop's next turn; unwritable: once writable.
                if writable { resumeLater(context: context) }
                break
            }
            let start = ContinuousClock.now
            let scan = buffer.withUnsafeReadableBytes { BundleRequestScan.scan($0, maxHeadBytes: maxHeadBytes) }
            guard
                answersRequests,
                case .bundle(
                    let length, let tag, let closes, let isHead, let encodings, let styleSheet, let host,
                    let authorization) = scan
            else { break }
            let (identity, gzip) =
                styleSheet
                ? (snapshot.styleSheet.identity, snapshot.styleSheet.gzip) : (snapshot.identity, snapshot.gzip)
            let (verdict, condition, acceptsGzip) = buffer.withUnsafeReadableBytes { bytes in
                (
                    admission.decide(
                        rawHost: host.map { UnsafeRawBufferPointer(rebasing: bytes[$0]) },
                        rawAuthorization: authorization.map { UnsafeRawBufferPointer(rebasing: bytes[$0]) },
                        needsToken: true),
                    tag.flatMap {
                        Self.condition(UnsafeRawBufferPointer(rebasing: bytes[$0]), identity: identity, gzip: gzip)
                    },
                    encodings.map { self.takesGzip(UnsafeRawBufferPointer(rebasing: bytes[$0])) } ?? false
                )
            }
            // Refused: the parser's path says why, by the same rule.
            guard case .admitted = verdict else { break }
            let answer = BundleDecision.respond(
                to: BundleQuery(
                    isHead: isHead, condition: condition, acceptsGzip: acceptsGzip,
                    form: styleSheet ? .styleSheet : .bundle),
                state: .loaded(snapshot))
            buffer.moveReaderIndex(forwardBy: length)
            answered += 1
            let (head, body) = heads.bytes(of: answer, closing: closes)
            context.write(wrapInboundOut(head), promise: nil)
            if let body { context.write(wrapInboundOut(body), promise: nil) }
            record(answer.status, isHead: isHead, styleSheet: styleSheet, since: start)
            if closes {
                context.flush()
                context.close(promise: nil)
                return
            }
        }
        if answered > 0 {
            context.flush()
            idleTimeout?.noteActivity()
        }
        if held == nil, buffer.readableBytes > 0 {
            handedOver = true
            heads = RenderedHeads()
            context.fireChannelRead(wrapInboundOut(buffer))
        }
    }

    /// Passed on only once the parser has bytes: before, there is nothing for it, or for the
    /// router's channel, to finish.
    func channelReadComplete(context: ChannelHandlerContext) {
        reading = false
        if handedOver { context.fireChannelReadComplete() }
    }

    private func record(
        _ status: HTTPResponse.Status, isHead: Bool, styleSheet: Bool, since start: ContinuousClock.Instant
    ) {
        let series =
            switch (status, isHead, styleSheet) {
            case (.notModified, false, false): answeredNotModified
            case (.ok, false, false): answeredBundle
            case (.notModified, false, true): answeredStyleSheetNotModified
            case (.ok, false, true): answeredStyleSheet
            default:
                metrics.requestSeries(
                    route: (styleSheet ? BundleForm.styleSheet : .bundle).path, environment: environment,
                    method: isHead ? "HEAD" : "GET", status: status.code)
            }
        series.count.increment()
        series.latency.record(.now - start)
    }

    /// Whether an `Accept-Encoding` value takes gzip. A client sends the same value with every
    /// request, so the last one read is kept with its verdict and compared as bytes.
    private func takesGzip(_ value: UnsafeRawBufferPointer) -> Bool {
        if let last = lastAcceptEncoding, RawBytes.equal(value, last.bytes) { return last.acceptsGzip }
        let verdict = AcceptEncoding.acceptsGzip(headerValues: [String(decoding: value, as: UTF8.self)])
        lastAcceptEncoding = (Array(value), verdict)
        return verdict
    }

    /// The `If-None-Match` value as a condition: a value that is exactly the tag of one of the
    /// representations asked for, the way every client that echoes the tag sends it, is
    /// compared as bytes and needs no parsing.
    private static func condition(
        _ value: UnsafeRawBufferPointer, identity: BundleRepresentation, gzip: BundleRepresentation?
    ) -> EntityTagCondition? {
        if RawBytes.equal(value, identity.etagBytes) { return identity.echoedCondition }
        if let gzip, RawBytes.equal(value, gzip.etagBytes) { return gzip.echoedCondition }
        return EntityTagCondition(headerValues: [String(decoding: value, as: UTF8.self)])
    }
}

/// The heads of the answers a connection sent during one second (the second is in the `Date`
/// header): each answer's ``ResponseHead`` with the `Date` added once, and a small body (a gzip
/// bundle, usually) added to it so that the answer leaves as one buffer; reused while the bundle
/// and the second stay the same. A head made once per version always goes with the same body
/// (``BundleRepresentation``), so the head and whether the body is in the bytes are the key.
struct RenderedHeads {
    /// Bodies up to this size are kept with their head; a larger bundle is written as it is
    /// rather than copied for every connection.
    static let keptBodyBytes = 16 * 1024

    private var second = -1
    private var entries: [Entry] = []

    private struct Entry {
        let head: ResponseHead
        let holdsBody: Bool
        let bytes: ByteBuffer
    }

    /// The bytes of `answer`: its whole head, completed now if it was not yet this second, with
    /// the body in it when small, and the body still to write after it otherwise.
    mutating func bytes(of answer: BundleResponse, closing: Bool) -> (head: ByteBuffer, body: ByteBuffer?) {
        let now = HTTPDateText.currentSecond()
        guard let head = answer.head, !closing else {
            let head = answer.head ?? ResponseHead(status: answer.status, fields: answer.fields)
            return (head.complete(second: now, closing: closing), answer.body)
        }
        if now != second {
            second = now
            entries.removeAll(keepingCapacity: true)
        }
        let holdsBody = answer.body.map { $0.readableBytes <= Self.keptBodyBytes } ?? false
        let rest = holdsBody ? nil : answer.body
        if let found = entries.first(where: { $0.head === head && $0.holdsBody == holdsBody }) {
            return (found.bytes, rest)
        }
        var bytes = head.complete(second: now, closing: false)
        if holdsBody, var body = answer.body { bytes.writeBuffer(&body) }
        // A few answers a second at most (200, HEAD and 304 of each representation of the
        // current bundle); more means the bundle changed within the second, and the old ones
        // can go.
        if entries.count >= 6 { entries.removeFirst() }
        entries.append(Entry(head: head, holdsBody: holdsBody, bytes: bytes))
        return (bytes, rest)
    }
}
