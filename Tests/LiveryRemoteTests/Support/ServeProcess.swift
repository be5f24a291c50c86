import AsyncHTTPClient
import Foundation
import LiveryTestSupport
import Testing

#if canImport(Glibc)
import Glibc
import NIOHTTP1
import NIOCore
#endif

/// `livery serve FOLDER --port 0` as a real child process: the `livery` executable of this test
/// build, so that it can be killed with SIGKILL like a daemon that crashes or loses its machine.
///
/// Its standard output is read for the line that names the port; its standard error is the
/// daemon's log (warnings and worse).
final class ServeProcess {
    let port: Int
    private let process: ChildProcess

    /// Starts the daemon on `folder` (with `environments`, a folder of environments) and returns
    /// once it says which port it listens on.
    init(
        folder: URL, work: URL, token: String, environments: Bool = false, arguments extra: [String] = []
    ) async throws {
        let tokenFile = work.appending(path: "\(UUID().uuidString).token")
        try Data(token.utf8).write(to: tokenFile)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: tokenFile.path)
        process = ChildProcess(
            try Self.liveryExecutable().path,
            ["serve"] + (environments ? ["--environments"] : []) + [
                folder.path, "--port", "0", "--token-file", tokenFile.path, "--log-level", "warning",
            ] + extra)
        try await process.start()
        port = try await Self.port(saidBy: process)
    }

    var url: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// SIGKILL: the process ends at once, its connections are reset by the kernel.
    func kill() { process.send(SIGKILL) }

    /// SIGTERM: a graceful shutdown.
    func stop() { process.terminate() }

    /// The sum of `livery_http_requests_total` over the series of `routes` and `statuses`, read
    /// from the daemon's `GET /metrics`.
    func requests(routes: [String], statuses: [Int], client: HTTPClient) async throws -> Int {
        let metrics = try await metrics(client: client)
        return routes.flatMap { route in statuses.map { RunningDaemon.count(in: metrics, route: route, status: $0) } }
            .reduce(0, +)
    }

    /// The requests the daemon holds now (long-polls, version waits, event streams): its
    /// `livery_waiting_clients` gauge.
    func waitingClients(client: HTTPClient) async throws -> Int {
        let metrics = try await metrics(client: client)
        let line = metrics.split(separator: "\n").first { $0.hasPrefix("livery_waiting_clients ") }
        let value = try #require(line?.split(separator: " ").last.flatMap { Double($0) }, "no livery_waiting_clients")
        return Int(value)
    }

    private func metrics(client: HTTPClient) async throws -> String {
        let response = try await client.execute(
            HTTPClientRequest(url: "\(url.absoluteString)/metrics"), timeout: .seconds(10))
        let body = try await response.body.collect(upTo: 1 << 22)
        try #require(response.status.code == 200, "GET /metrics answered \(response.status.code)")
        return String(decoding: body.readableBytesView, as: UTF8.self)
    }

    /// The ETag of the bundle the daemon serves now (`GET /v1/spec`), quoted as in the header.
    func currentETag(client: HTTPClient) async throws -> String? {
        let response = try await client.execute(
            HTTPClientRequest(url: "\(url.absoluteString)/v1/spec"), timeout: .seconds(10))
        _ = try await response.body.collect(upTo: 1 << 22)
        try #require(response.status.code == 200, "GET /v1/spec answered \(response.status.code)")
        return response.headers.first(name: "ETag")
    }

    /// `livery` beside the test bundle: `swift build --build-tests` builds both.
    private static func liveryExecutable() throws -> URL {
        let livery = URL(filePath: CommandLine.arguments[0]).deletingLastPathComponent().appending(path: "livery")
        try #require(
            FileManager.default.isExecutableFile(atPath: livery.path),
            "no livery executable beside \(CommandLine.arguments[0]): run swift build --build-tests first")
        return livery
    }

    /// Waits for "livery: serving … on http://127.0.0.1:PORT" on its standard output.
    private static func port(saidBy process: ChildProcess) async throws -> Int {
        for try await line in process.lines where line.contains(" on http://") {
            if let colon = line.lastIndex(of: ":"),
                let port = Int(line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
            {
                return port
            }
        }
        throw FreePort.Failure(description: "livery serve exited before listening: \(process.errors)")
    }
}
