import Hummingbird
import NIOCore

/// Answers a connection's plain `GET /v1/spec` requests straight from the bytes the client
/// sent, with pre-built answers, before the HTTP parser runs; from the first request of any
/// other kind on, it hands the connection's bytes to the parser and stands aside for good.
///
/// Why: a fleet of polling clients sends the same conditional GET thousands of times a second,
/// and through NIO's parser, the HTTP types and the handlers each one cost more than twice what
/// the kernel spends on its two system calls (figure 3: 0.43–0.48× nginx's rate). Here a
/// request is recognised by ``BundleRequestScan``, which accepts only the plainest heads, and
/// answered with bytes made once a second per connection.
///
/// The connection's idle timeout still sees these requests: each batch answered is reported
/// to the connection's ``IdleTimeoutHandler`` (a direct call: both live on the connection's
/// event loop, and an event through the pipeline cost 4 % of the time).
final class RawBundleHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let hub: BundleHub
    private let maxHeadBytes: Int
    private let answeredNotModified: RequestSeries.Series
    private let answeredBundle: RequestSeries.Series
    private var handedOver = false
    private var answers: BundleAnswerBytes?
    /// Told of every batch answered, so that it does not take the connection for idle.
    private let idleTimeout: IdleTimeoutHandler?

    init(hub: BundleHub, metrics: ServerMetrics, maxHeadBytes: Int, idleTimeout: IdleTimeoutHandler?) {
        self.hub = hub
        self.idleTimeout = idleTimeout
        self.maxHeadBytes = maxHeadBytes
        answeredNotModified = metrics.requestSeries(route: "/v1/spec", method: "GET", status: 304)
        answeredBundle = metrics.requestSeries(route: "/v1/spec", method: "GET", status: 200)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !handedOver else {
            context.fireChannelRead(data)
            return
        }
        var buffer = unwrapInboundIn(data)
        var answered = false
        while buffer.readableBytes > 0, let snapshot = hub.snapshot {
            let start = ContinuousClock.now
            let scan = buffer.withUnsafeReadableBytes { BundleRequestScan.scan($0, maxHeadBytes: maxHeadBytes) }
            guard case .bundle(let length, let tag, let closes) = scan else { break }
            let notModified = tag.map { range in
                buffer.withUnsafeReadableBytes { Self.condition(UnsafeRawBufferPointer(rebasing: $0[range]), matches: snapshot) }
            } ?? false
            buffer.moveReaderIndex(forwardBy: length)
            answered = true
            if closes {
                let head = BundleAnswerBytes.head(for: snapshot, notModified: notModified, closing: true)
                respond(head: head, snapshot: snapshot, notModified: notModified, context: context)
                record(notModified: notModified, since: start)
                context.flush()
                context.close(promise: nil)
                return
            }
            let answers = currentAnswers(for: snapshot)
            respond(head: notModified ? answers.notModified : answers.bundleHead, snapshot: snapshot, notModified: notModified, context: context)
            record(notModified: notModified, since: start)
        }
        if answered {
            context.flush()
            idleTimeout?.noteActivity()
        }
        if buffer.readableBytes > 0 {
            handedOver = true
            answers = nil
            context.fireChannelRead(wrapInboundOut(buffer))
        }
    }

    /// Passed on only once the parser has bytes: before, there is nothing for it, or for the
    /// router's channel, to finish.
    func channelReadComplete(context: ChannelHandlerContext) {
        if handedOver { context.fireChannelReadComplete() }
    }

    private func respond(head: ByteBuffer, snapshot: BundleSnapshot, notModified: Bool, context: ChannelHandlerContext) {
        context.write(wrapInboundOut(head), promise: nil)
        if !notModified { context.write(wrapInboundOut(snapshot.bytes), promise: nil) }
    }

    private func record(notModified: Bool, since start: ContinuousClock.Instant) {
        let series = notModified ? answeredNotModified : answeredBundle
        series.count.increment()
        series.latency.record(.now - start)
    }

    /// The answers for `snapshot` this second, made again when either changes.
    private func currentAnswers(for snapshot: BundleSnapshot) -> BundleAnswerBytes {
        let second = HTTPDateText.currentSecond()
        if let answers, answers.second == second, answers.etag == snapshot.etag { return answers }
        let made = BundleAnswerBytes(snapshot: snapshot, second: second)
        answers = made
        return made
    }

    /// Whether an `If-None-Match` value matches the bundle: compared as bytes to its tag first,
    /// the way every client that echoes the tag sends it; read as a list otherwise.
    private static func condition(_ value: UnsafeRawBufferPointer, matches snapshot: BundleSnapshot) -> Bool {
        if value.elementsEqual(snapshot.etagText.utf8) { return true }
        let text = String(decoding: value, as: UTF8.self)
        return EntityTagCondition(headerValues: [text])?.matchesWeakly(snapshot.etag) == true
    }
}

/// The bytes of the two answers to a plain GET of one bundle during one second (the second is
/// in the `Date` header).
struct BundleAnswerBytes {
    let etag: EntityTag
    let second: Int
    /// `304 Not Modified`, whole.
    let notModified: ByteBuffer
    /// The head of `200 OK`; the body is the bundle's bytes.
    let bundleHead: ByteBuffer

    init(snapshot: BundleSnapshot, second: Int) {
        etag = snapshot.etag
        self.second = second
        let date = HTTPDateText.format(secondsSince1970: second)
        notModified = Self.head(for: snapshot, notModified: true, date: date, closing: false)
        bundleHead = Self.head(for: snapshot, notModified: false, date: date, closing: false)
    }

    /// The head of an answer, with the current date.
    static func head(for snapshot: BundleSnapshot, notModified: Bool, closing: Bool) -> ByteBuffer {
        head(for: snapshot, notModified: notModified, date: HTTPDateText.format(secondsSince1970: HTTPDateText.currentSecond()), closing: closing)
    }

    /// The same fields, in the same order, as the router's answers (BundleSnapshot's fields).
    private static func head(for snapshot: BundleSnapshot, notModified: Bool, date: String, closing: Bool) -> ByteBuffer {
        let fields = notModified ? snapshot.notModifiedFields : snapshot.bundleFields
        var text = notModified ? "HTTP/1.1 304 Not Modified\r\n" : "HTTP/1.1 200 OK\r\n"
        for field in fields { text += "\(field.name.rawName): \(field.value)\r\n" }
        text += "Date: \(date)\r\n"
        if closing { text += "Connection: close\r\n" }
        text += "\r\n"
        return ByteBuffer(string: text)
    }
}
