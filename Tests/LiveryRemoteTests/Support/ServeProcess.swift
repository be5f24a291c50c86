import AsyncHTTPClient
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `livery serve FOLDER --port 0` as a real child process: the `livery` executable of this test
/// build, so that it can be killed with SIGKILL like a daemon that crashes or loses its machine.
///
/// Its standard output goes to a file in `work`, read for the line that names the port; its
/// standard error (the daemon's log, warnings and worse) to another file beside it.
final class ServeProcess {
    let port: Int
    private let process: Process

    /// Starts the daemon on `folder` and returns once it says which port it listens on.
    init(folder: URL, work: URL, token: String) throws {
        let name = UUID().uuidString
        let tokenFile = work.appending(path: "\(name).token")
        let said = work.appending(path: "\(name).out")
        try Data(token.utf8).write(to: tokenFile)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: tokenFile.path)
        let log = work.appending(path: "\(name).log")
        try Data().write(to: said)
        try Data().write(to: log)
        process = Process()
        process.executableURL = try Self.liveryExecutable()
        process.arguments = [
            "serve", folder.path, "--port", "0", "--token-file", tokenFile.path, "--log-level", "warning",
        ]
        process.standardOutput = try FileHandle(forWritingTo: said)
        process.standardError = try FileHandle(forWritingTo: log)
        try process.run()
        port = try Self.port(saidIn: said, by: process)
    }

    var url: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// SIGKILL: the process ends at once, its connections are reset by the kernel.
    func kill() {
        guard process.isRunning else { return }
        Glibc.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// SIGTERM (graceful shutdown), then waits for the exit.
    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }

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

    /// Waits for "livery: serving … on http://127.0.0.1:PORT" in `file`.
    private static func port(saidIn file: URL, by process: Process) throws -> Int {
        let deadline = ContinuousClock.now + .seconds(20)
        while ContinuousClock.now < deadline {
            let text = try String(contentsOf: file, encoding: .utf8)
            if let line = text.split(separator: "\n").first(where: { $0.contains(" on http://") }),
                let colon = line.lastIndex(of: ":"),
                let port = Int(line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
            {
                return port
            }
            try #require(process.isRunning, "livery serve exited before listening: \(text)")
            usleep(20_000)
        }
        throw FreePort.Failure(description: "livery serve did not say its port within 20 s")
    }
}
