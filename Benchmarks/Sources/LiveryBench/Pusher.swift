import AsyncHTTPClient
import Foundation
import LiveryServer
import NIOCore
import NIOHTTP1

/// `PUT`s a spec file to the daemon with its bearer token, the way `livery push` does.
struct Pusher: Sendable {
    let url: URL
    let token: BearerToken

    /// Sends `body` and returns once the daemon has answered 2xx and the answer is read.
    func put(_ body: Data) async throws {
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = .PUT
        request.headers.add(name: "Authorization", value: token.authorizationHeader)
        request.headers.add(name: "Content-Type", value: "application/yaml")
        request.body = .bytes(ByteBuffer(bytes: body))
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(10))
        let answer = try await response.body.collect(upTo: 1 << 20)
        guard (200..<300).contains(Int(response.status.code)) else {
            throw BenchError("PUT \(url) answered \(response.status): \(String(buffer: answer))")
        }
    }
}
