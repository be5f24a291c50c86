import Foundation
import Hummingbird

/// An RFC 9457 problem details document, the body of every 4xx and 5xx answer of the daemon.
public struct Problem: Codable, Hashable, Sendable {
    /// A URI naming the kind of problem (`urn:livery:problem:…`), stable for programs to test.
    public var type: String
    /// A short summary of the kind of problem.
    public var title: String
    /// The HTTP status code.
    public var status: Int
    /// What happened this time, for a human.
    public var detail: String
    /// The spec errors behind a 422 (or a forbidden path), in source order.
    public var errors: [Diagnostic]?

    /// Creates a problem; `kind` becomes the type URI `urn:livery:problem:<kind>`.
    public init(kind: String, title: String, status: HTTPResponse.Status, detail: String, errors: [Diagnostic]? = nil) {
        self.type = "urn:livery:problem:\(kind)"
        self.title = title
        self.status = status.code
        self.detail = detail
        self.errors = errors
    }

    /// The problem as a response, `Content-Type: application/problem+json`.
    func response(headers extra: HTTPFields = [:]) -> Response {
        var headers = extra
        headers[.contentType] = "application/problem+json"
        headers[.cacheControl] = "no-store"
        let body = JSONBody.encode(self)
        return Response(status: HTTPResponse.Status(code: status), headers: headers, body: .init(byteBuffer: body))
    }
}

extension Problem: Error {}

/// JSON encoding shared by the handlers: sorted keys, unescaped slashes, one line.
enum JSONBody {
    static func encode(_ value: some Encodable) -> ByteBuffer {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            return ByteBuffer(bytes: try encoder.encode(value))
        } catch {
            // Our own report types hold only strings and numbers; encoding them cannot fail.
            return ByteBuffer(string: #"{"error":"encoding failed"}"#)
        }
    }

    /// A `200 OK` (or `status`) JSON response.
    static func response(_ value: some Encodable, status: HTTPResponse.Status = .ok, headers extra: HTTPFields = [:]) -> Response {
        var headers = extra
        headers[.contentType] = "application/json"
        return Response(status: status, headers: headers, body: .init(byteBuffer: encode(value)))
    }
}
