import AsyncHTTPClient
import Foundation
import Livery
import LiveryServer
import NIOCore
import NIOHTTP1

/// One `PUT /v1/specs/{path}` and the reading of its answer.
struct PushRequest {
    /// What became of a push.
    enum Outcome {
        /// Written: 200 or 201, with the file's new ETag.
        case accepted(status: Int, etag: String)
        /// 202: a protected environment holds the write as this change request.
        case held(Data)
        /// Refused: the lines to print, compiler style where the server named places.
        case refused([String])
    }

    var server: String
    var token: BearerToken
    var path: String
    var ifMatch: String?
    /// The environment the push goes to (`--environment`).
    var environment: String?
    /// Whether a write to a protected environment skips its change request (`--bypass-approval`).
    var bypassApproval = false

    /// Sends `body` through `client`; a refusal's places are named by `naming`.
    func send(_ body: Data, client: HTTPClient, naming: SpecFileNaming) async throws -> Outcome {
        let base = server.hasSuffix("/") ? String(server.dropLast()) : server
        var request = HTTPClientRequest(
            url: base + EnvironmentOption.path("/v1/specs/\(Self.encoded(path))", environment: environment))
        request.method = .PUT
        request.headers.add(name: "Authorization", value: token.authorizationHeader)
        request.headers.add(
            name: "Content-Type", value: path.hasSuffix(".json") ? "application/json" : "application/yaml")
        if let ifMatch { request.headers.add(name: "If-Match", value: ifMatch) }
        if bypassApproval { request.headers.add(name: ApprovalOption.header.name, value: ApprovalOption.header.value) }
        request.body = .bytes(ByteBuffer(bytes: body))
        let response = try await client.execute(request, timeout: .seconds(30))
        let bytes = try await response.body.collect(upTo: 1024 * 1024)
        let status = Int(response.status.code)
        if status == 202 { return .held(Data(bytes.readableBytesView)) }
        if status == 200 || status == 201 {
            return .accepted(status: status, etag: response.headers.first(name: "ETag") ?? "?")
        }
        return .refused(
            Self.describe(
                status: status, reason: response.status.reasonPhrase, body: Data(bytes.readableBytesView),
                naming: naming))
    }

    /// `path` as a URL path segment. Everything but unreserved ASCII is escaped, slashes and
    /// dots included, so no layer in between can normalise `..` or `//` away: the server sees
    /// the path the user named.
    static func encoded(_ path: String) -> String {
        let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_~")
        return path.unicodeScalars.map { unreserved.contains($0) ? String($0) : Self.escape($0) }.joined()
    }

    private static func escape(_ scalar: Unicode.Scalar) -> String {
        String(scalar).utf8.map { byte in
            let hex = String(byte, radix: 16, uppercase: true)
            return "%" + (hex.count == 1 ? "0" + hex : hex)
        }.joined()
    }

    /// The refusal as lines: the problem's errors in compiler style, every place named by
    /// `naming`, after a summary.
    static func describe(
        status: Int, reason: String, body: Data, action: String = "push", naming: SpecFileNaming = .asStored
    ) -> [String] {
        let problem: Problem
        do {
            problem = try JSONDecoder().decode(Problem.self, from: body)
        } catch {
            // Not a problem document (another server, a proxy): show what there is instead.
            let text = String(decoding: body.prefix(500), as: UTF8.self)
            return ["error: the server answered \(status) \(reason)" + (text.isEmpty ? "" : ": \(text)")]
        }
        // The daemon's detail already carries the note on trait types it does not know.
        var lines = (problem.errors ?? []).map { $0.named(naming).compilerStyle }
        let hint = status == 401 ? " (check --token-file)" : status == 412 ? " (fetch the file again)" : ""
        lines.append("error: \(action) refused, \(status) \(problem.title): \(problem.detail)\(hint)")
        return lines
    }
}
