import ArgumentParser
import AsyncHTTPClient
import Foundation
import LiveryRemote
import LiveryServer

/// `livery push FILE...`: uploads spec files to a running `livery serve`.
///
/// The server validates each push together with the files it already has; its errors are
/// printed like a compiler's (`file:line:column: error: message`), with the local file's path
/// for errors in the pushed file. Any refusal makes the exit status 1.
struct PushCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "push",
        abstract: "Upload spec files to a running livery serve, which validates them before writing."
    )

    @Argument(help: "The spec files to push.")
    var files: [String]

    @Option(help: "The daemon's base URL.")
    var server = "http://127.0.0.1:7878"

    @Option(help: "The push token file (default: where livery serve writes it, \(TokenFile.defaultLocation().path)).")
    var tokenFile: String?

    @Option(name: .customLong("as"), help: "The path in the specs folder (one file only; default: the file's name).")
    var remotePath: String?

    @Option(help: "Push only if the server's copy still has this ETag (one file only).")
    var ifMatch: String?

    @Option(help: "A PEM file of the certificate authorities to trust for an https --server (default: the system's).")
    var cacert: String?

    func validate() throws {
        guard !files.isEmpty else { throw ValidationError("name at least one file to push") }
        if files.count > 1, remotePath != nil || ifMatch != nil {
            throw ValidationError("--as and --if-match need exactly one file")
        }
        guard URL(string: server)?.host != nil else { throw ValidationError("--server '\(server)' is not a URL") }
        if let cacert, !FileManager.default.isReadableFile(atPath: cacert) {
            throw ValidationError("--cacert \(cacert): no such readable file")
        }
    }

    func run() async throws {
        let token = try TokenFile.read(tokenFile.map { URL(filePath: $0) } ?? TokenFile.defaultLocation())
        var configuration = HTTPClient.Configuration()
        configuration.tlsConfiguration = .livery(trustingCertificatesAt: cacert)
        let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
        do {
            try await push(token: token, client: client)
        } catch {
            try await client.shutdown()
            throw error
        }
        try await client.shutdown()
    }

    private func push(token: BearerToken, client: HTTPClient) async throws {
        var failed = false
        for file in files {
            let remote = remotePath ?? URL(filePath: file).lastPathComponent
            let body: Data
            do {
                body = try Data(contentsOf: URL(filePath: file))
            } catch {
                Self.complain("\(file): error: cannot read the file: \(error.localizedDescription)")
                failed = true
                continue
            }
            let outcome = try await PushRequest(server: server, token: token, path: remote, ifMatch: ifMatch).send(body, client: client)
            switch outcome {
            case .accepted(let status, let etag):
                print("\(file): \(status == 201 ? "created" : "updated") \(remote) (ETag \(etag))")
            case .refused(let lines):
                failed = true
                for line in lines {
                    // Errors in the pushed file point at the local file, so editors can jump there.
                    Self.complain(line.hasPrefix(remote + ":") ? file + line.dropFirst(remote.count) : line)
                }
            }
        }
        if failed { throw ExitCode(1) }
    }

    static func complain(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
