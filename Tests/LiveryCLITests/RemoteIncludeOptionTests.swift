import Foundation
import LiveryTestSupport
import LiveryTesting
import Testing

/// `--allow-include` on `livery validate` (the same options serve `serve` and `watch`), against
/// the real executable and, for the allowed case, a real `python3 -m http.server`.
@Suite(.timeLimit(.minutes(1))) struct RemoteIncludeOptionTests {
    @Test func withoutTheOptionARemoteIncludeIsOffAndSaysHowToEnableIt() async throws {
        let folder = try TemporarySpecFolder()
        try folder.write("card.yaml", "include: ['https://cdn.example.com/brand/palette.yaml']\nspecs: {}\n")
        let (status, output) = try await LiveryProcess.run(["validate", "."], in: folder.url)
        #expect(status == 1)
        #expect(
            output
                == "card.yaml:1:11: error: remote includes are off: 'https://cdn.example.com/brand/palette.yaml' is not fetched; enable it with --allow-include https://cdn.example.com/brand/\n"
        )
    }

    @Test func aBadPrefixIsAUsageError() async throws {
        let (status, output) = try await LiveryProcess.run([
            "validate", "--allow-include", "https://a@cdn.example.com/", ".",
        ])
        #expect(status == 64)
        #expect(output.contains("--allow-include: allowed prefix 'https://a@cdn.example.com/' has user information"))
    }

    @Test(arguments: ["validate", "watch", "serve"])
    func helpDescribesTheOption(command: String) async throws {
        let (status, output) = try await LiveryProcess.run([command, "--help"])
        #expect(status == 0)
        #expect(output.contains("--allow-include <prefix>"))
        #expect(output.contains("--include-timeout <include-timeout>"))
    }

    @Test func anAllowedPrefixIsFetchedFromARealServer() async throws {
        let site = try TemporarySpecFolder(prefix: "livery-cdn")
        try site.write("brand/palette.yaml", "variables:\n  colors: { accent: '#0A84FF' }\n")
        let server = try await PythonHTTPServer(serving: site.url)
        defer { server.stop() }
        let folder = try TemporarySpecFolder()
        try folder.write(
            "card.yaml",
            "include: ['\(server.base)/brand/palette.yaml']\nspecs:\n  card: [{ type: BackgroundColor, color: '@colors.accent' }]\n"
        )
        let allowed = try await LiveryProcess.run(
            ["validate", "--allow-include", server.base + "/brand/", "."], in: folder.url)
        #expect(allowed.output == ".: ok\n")
        #expect(allowed.status == 0)
        try folder.write("card.yaml", "include: ['\(server.base)/brand/missing.yaml']\nspecs: {}\n")
        let missing = try await LiveryProcess.run(
            ["validate", "--allow-include", server.base + "/brand/", "."], in: folder.url)
        #expect(missing.status == 1)
        #expect(
            missing.output == "card.yaml:1:11: error: cannot fetch \(server.base)/brand/missing.yaml: 404 Not Found\n")
    }
}

/// `python3 -m http.server` on a free loopback port, serving a folder.
private final class PythonHTTPServer {
    private let process: ChildProcess
    let base: String

    init(serving folder: URL) async throws {
        process = ChildProcess(
            "python3", ["-u", "-m", "http.server", "0", "--bind", "127.0.0.1", "--directory", folder.path])
        try await process.start()
        // "Serving HTTP on 127.0.0.1 port 40123 (http://127.0.0.1:40123/) ..."
        var lines = process.lines.makeAsyncIterator()
        guard let line = try await lines.next(), let match = line.firstMatch(of: /port (\d+)/) else {
            process.send(SIGKILL)
            throw CocoaError(
                .fileReadUnknown,
                userInfo: [NSLocalizedDescriptionKey: "http.server did not start: \(process.output) \(process.errors)"])
        }
        base = "http://127.0.0.1:\(match.1)"
    }

    func stop() { process.send(SIGKILL) }
}
