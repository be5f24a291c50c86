import Foundation
import LiveryServer
import LiveryTestSupport
import LiveryTesting
import Testing

/// Pushed files get the permissions any program's new files get: 0666 (folders 0777) less the
/// umask of `livery serve`; a file pushed over keeps its own.
@Suite(.timeLimit(.minutes(1))) struct FileModeTests {
    private static func mode(_ path: String) throws -> Int {
        try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
    }

    @Test(arguments: [("027", 0o640, 0o750), ("077", 0o600, 0o700), ("022", 0o644, 0o755)])
    func pushedFilesHonourTheUmask(umask: String, file: Int, folder: Int) async throws {
        let specs = try TemporarySpecFolder(prefix: "livery-modes")
        try TestDaemon.writeExample(to: specs)
        try FileManager.default.setAttributes([.posixPermissions: 0o604], ofItemAtPath: specs.url("card.yaml").path)
        let runtime = try TemporarySpecFolder(prefix: "livery-runtime")
        let serve = try await Subprocess(
            ["serve", specs.url.path, "--port", "0", "--log-level", "warning"],
            environment: ["XDG_RUNTIME_DIR": runtime.url.path], umask: umask)
        defer { if serve.process.isRunning { serve.process.interrupt() } }
        try #require(
            try await TestDaemon.eventually(timeout: .seconds(10)) { serve.stdout.contains("on http://") },
            "serve did not start; stderr: \(serve.stderr)")
        let base = try #require(serve.stdout.firstMatch(of: /on (http:\/\/127\.0\.0\.1:\d+)/)?.1).description
        let token = try TokenFile.read(URL(filePath: runtime.url.path + "/livery/token"))
        let http = HTTP(base: base, token: token.text)

        #expect(try await http.put("/v1/specs/themes/new.yaml", "specs:\n  new: []\n").status == 201)
        #expect(try Self.mode(specs.url("themes/new.yaml").path) == file)
        #expect(try Self.mode(specs.url("themes").path) == folder)
        let card = try String(contentsOf: specs.url("card.yaml"), encoding: .utf8)
        #expect(try await http.put("/v1/specs/card.yaml", card + "# edited\n").status == 200)
        #expect(try Self.mode(specs.url("card.yaml").path) == 0o604, "a replaced file keeps its mode")

        serve.process.terminate()
        #expect(try await serve.exitStatus() == 0, "stderr: \(serve.stderr)")
    }
}
