import Hummingbird
import NIOCore

/// A response's status line and header fields, all but `Date`, as the bytes NIO's encoder writes
/// for them: made once per published bundle for each answer ``BundleDecision`` gives about it
/// (``BundleRepresentation``), so the raw path sends a head without rendering it per request.
final class ResponseHead: Sendable {
    /// The status line and the fields, each line ending in CRLF; no `Date`, no blank line.
    let bytes: ByteBuffer

    /// Renders `status` and `fields`.
    init(status: HTTPResponse.Status, fields: HTTPFields) {
        var text = "HTTP/1.1 \(status.code) \(status.reasonPhrase)\r\n"
        for field in fields { text += "\(field.name.rawName): \(field.value)\r\n" }
        bytes = ByteBuffer(string: text)
    }

    /// The whole head: ``bytes``, the `Date` of `second` (seconds since 1970), `Connection:
    /// close` when `closing`, and the blank line.
    func complete(second: Int, closing: Bool) -> ByteBuffer {
        var head = bytes
        head.writeString("Date: \(HTTPDateText.format(secondsSince1970: second))\r\n")
        if closing { head.writeString("Connection: close\r\n") }
        head.writeString("\r\n")
        return head
    }
}
