import Foundation
package import Hummingbird

/// An RFC 9457 problem details document, the body of every 4xx and 5xx answer of the daemon.
///
/// Handlers throw it (it is Hummingbird's `HTTPResponseError`) and it renders itself, with any
/// extra header fields it carries (`WWW-Authenticate`, `Retry-After`).
package struct Problem: Codable, Hashable, Sendable {
    /// A URI naming the kind of problem (`urn:livery:problem:…`), stable for programs to test.
    public var type: String
    /// A short summary of the kind of problem.
    public var title: String
    /// The HTTP status code.
    public var statusCode: Int
    /// What happened this time, for a human.
    public var detail: String
    /// The spec errors behind a 422 (or a forbidden path), in source order.
    public var errors: [Diagnostic]?
    /// The scope a 401 or 403 found missing.
    public var scope: String?
    /// The environment the request addressed, on a 401 or 403.
    public var environment: String?
    /// Header fields the answer carries besides the content type; not part of the document.
    public var headers: HTTPFields = [:]

    private enum CodingKeys: String, CodingKey {
        case type, title, statusCode = "status", detail, errors, scope, environment
    }

    /// Creates a problem of `kind`, which gives it its type URI (`urn:livery:problem:<kind>`),
    /// title and status.
    public init(kind: ProblemKind, detail: String, errors: [Diagnostic]? = nil, headers: HTTPFields = [:]) {
        self.type = Self.typePrefix + kind.rawValue
        self.title = kind.title
        self.statusCode = kind.status.code
        self.detail = detail
        self.errors = errors
        self.headers = headers
    }

    private static let typePrefix = "urn:livery:problem:"

    /// The kind the type URI names; `nil` for a document that is not one of this daemon's.
    public var kind: ProblemKind? {
        guard type.hasPrefix(Self.typePrefix) else { return nil }
        return ProblemKind(rawValue: String(type.dropFirst(Self.typePrefix.count)))
    }

    /// The header fields of the problem's answer: its own, the problem content type and `no-store`.
    var fields: HTTPFields {
        var fields = headers
        fields[.contentType] = "application/problem+json"
        fields[.cacheControl] = "no-store"
        return fields
    }

    /// The problem as a response, `Content-Type: application/problem+json`.
    func response(headers extra: HTTPFields = [:]) -> Response {
        var headers = fields
        headers.append(contentsOf: extra)
        return Response(status: status, headers: headers, body: .init(byteBuffer: JSONBody.encode(self)))
    }
}

extension Problem {
    /// `GET /v1/spec/{etag}` of a version the daemon does not keep (or never had).
    static func versionNotKept(_ tag: String) -> Problem {
        Problem(
            kind: .versionNotKept,
            detail: "no bundle with ETag \(tag) is kept here; GET /v1/version names the current one")
    }

    /// 503 while no bundle has loaded yet, naming the errors that keep the specs from loading.
    static func noBundle(_ errors: [Diagnostic]) -> Problem {
        Problem(
            kind: .noBundle,
            detail: errors.isEmpty
                ? "the specs have not been read yet"
                : "the specs do not load: \(errors[0].compilerStyle)",
            errors: errors.isEmpty ? nil : errors, headers: [.retryAfter: "1"])
    }
}

extension Problem: HTTPResponseError {
    /// The HTTP status, as Hummingbird reads it from a thrown error.
    public var status: HTTPResponse.Status { HTTPResponse.Status(code: statusCode) }

    /// Renders the thrown problem.
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        response()
    }
}

/// JSON encoding shared by the handlers: sorted keys, unescaped slashes, one line.
enum JSONBody {
    static func encode(_ value: some Encodable) -> ByteBuffer {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        do {
            return ByteBuffer(bytes: try encoder.encode(value))
        } catch {
            // Our own report types hold only strings and numbers; encoding them cannot fail.
            return ByteBuffer(string: #"{"error":"encoding failed"}"#)
        }
    }

    /// A `200 OK` (or `status`) JSON response.
    static func response(
        _ value: some Encodable, status: HTTPResponse.Status = .ok, headers extra: HTTPFields = [:]
    ) -> Response {
        var headers = extra
        headers[.contentType] = "application/json"
        return Response(status: status, headers: headers, body: .init(byteBuffer: encode(value)))
    }
}
