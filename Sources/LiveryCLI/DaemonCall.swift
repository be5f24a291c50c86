import AsyncHTTPClient
import Foundation
import Livery
import LiveryServer
import NIOCore
import NIOHTTP1

/// One JSON request to a running `livery serve` and the reading of its answer: the helper of
/// `push` (for a publish), `history` and `rollback`.
struct DaemonCall {
    var server: String
    var token: BearerToken?
    /// `livery push --cacert` brings its own, trusting that file's authorities.
    var client: HTTPClient = .shared

    /// What the daemon answered.
    enum Outcome {
        /// 2xx, with the body.
        case ok(Data)
        /// 202: a protected environment holds the write as this change request.
        case held(Data)
        /// Refused: the lines to print, compiler style where the server named places.
        case refused([String])
    }

    /// What the request does, as a refusal names it (`error: history refused, …`): each command
    /// says its own, so a refusal never calls a read a push.
    var action: String
    /// The environment the requests address (`--environment`).
    var environment: String?
    /// Whether a write to a protected environment skips its change request (`--bypass-approval`).
    var bypassApproval = false

    /// A GET of `path`, or a POST with `post` true.
    func send(
        post: Bool = false, _ path: String, json: Data? = nil, headers: [(String, String)] = [],
        naming: SpecFileNaming = .asStored
    ) async throws -> Outcome {
        try await send(method: post ? .POST : .GET, path, json: json, headers: headers, naming: naming)
    }

    /// A request of `method` for `path`.
    func send(
        method: HTTPMethod, _ path: String, json: Data? = nil, headers: [(String, String)] = [],
        naming: SpecFileNaming = .asStored
    ) async throws -> Outcome {
        let (status, reason, bytes) = try await exchange(method: method, path, json: json, headers: headers)
        return outcome(status: status, reason: reason, body: bytes, naming: naming)
    }

    /// A GET of `path` where a 404 problem of `absentKind` means there is nothing to show rather
    /// than a refusal: `nil` then.
    func read(_ path: String, absentKind: ProblemKind) async throws -> Outcome? {
        let (status, reason, bytes) = try await exchange(method: .GET, path, json: nil, headers: [])
        if status == 404, Self.isProblem(bytes, kind: absentKind) { return nil }
        return outcome(status: status, reason: reason, body: bytes, naming: .asStored)
    }

    private static func isProblem(_ body: Data, kind: ProblemKind) -> Bool {
        do {
            return try JSONDecoder().decode(Problem.self, from: body).kind == kind
        } catch {
            return false  // not a problem document (a proxy's page): a refusal like any other
        }
    }

    private func exchange(
        method: HTTPMethod, _ path: String, json: Data?, headers: [(String, String)]
    ) async throws -> (status: Int, reason: String, body: Data) {
        let base = server.hasSuffix("/") ? String(server.dropLast()) : server
        var request = HTTPClientRequest(url: base + EnvironmentOption.path(path, environment: environment))
        request.method = method
        if let token { request.headers.add(name: "Authorization", value: token.authorizationHeader) }
        if bypassApproval { request.headers.add(name: ApprovalOption.header.name, value: ApprovalOption.header.value) }
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let json {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: json))
        }
        let response = try await client.execute(request, timeout: .seconds(30))
        let bytes = Data(try await response.body.collect(upTo: 16 * 1024 * 1024).readableBytesView)
        return (Int(response.status.code), response.status.reasonPhrase, bytes)
    }

    private func outcome(status: Int, reason: String, body: Data, naming: SpecFileNaming) -> Outcome {
        if status == 202 { return .held(body) }
        if (200..<300).contains(status) { return .ok(body) }
        return .refused(
            PushRequest.describe(status: status, reason: reason, body: body, action: action, naming: naming))
    }

    /// `livery push`'s atomic publish: `POST /v1/specs`.
    /// With `rollout` (such as `10%`), the files are a rollout's candidate instead.
    /// `headers` go with it (`Livery-Signed-Targets`).
    func publish(
        files: [String: String?], message: String, ifMatch: String?, rollout: String? = nil, replace: Bool = false,
        headers: [(String, String)] = [], naming: SpecFileNaming = .asStored
    ) async throws -> Outcome {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let body = try encoder.encode(PublishBody(files: files, message: message, rollout: rollout, replace: replace))
        return try await send(
            post: true, "/v1/specs", json: body, headers: (ifMatch.map { [("If-Match", $0)] } ?? []) + headers,
            naming: naming)
    }

    private struct PublishBody: Encodable {
        var files: [String: String?]
        var message: String
        var rollout: String?
        var replace: Bool

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(FileContents(files), forKey: Key("files"))
            try container.encode(message, forKey: Key("message"))
            if let rollout {
                try container.encode(rollout, forKey: Key("rollout"))
                try container.encode(replace, forKey: Key("replace"))
            }
        }
    }

    /// `livery push --at`, a progressive rollout, `livery rollout set --at` or `livery promote
    /// --at`: `POST /v1/schedule` with `body`; `headers` go with it (`Livery-Signed-Targets`).
    func schedule(
        _ body: ScheduleBody, ifMatch: String? = nil, headers: [(String, String)] = [],
        naming: SpecFileNaming = .asStored
    ) async throws
        -> Outcome
    {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try await send(
            method: .POST, "/v1/schedule", json: try encoder.encode(body),
            headers: (ifMatch.map { [("If-Match", $0)] } ?? []) + headers,
            naming: naming)
    }

    /// The body of `POST /v1/schedule` (the daemon's `ScheduleRequest`).
    struct ScheduleBody: Encodable {
        var action: String
        var at: String?
        var files: FileContents?
        var message: String?
        var percent: String?
        var percents: [String]?
        var every: String?
        var steps: [Step]?
        /// A promotion's source and its revision.
        var from: String?
        var revision: Int64?

        struct Step: Encodable {
            var at: String
            var percent: String
        }
    }

    /// The files of a publish or a schedule, by path; a removal is an explicit null, which the
    /// synthesised encoding of an optional would leave out.
    struct FileContents: Encodable {
        var files: [String: String?]

        init(_ files: [String: String?]) { self.files = files }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            for (path, content) in files { try container.encode(content, forKey: Key(path)) }
        }
    }

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
