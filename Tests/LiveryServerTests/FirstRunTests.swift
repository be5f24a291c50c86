import Foundation
import LiveryServer
import LiveryTestSupport
import LiveryTesting
import Testing

/// What a newcomer meets following the README with the real `livery` executable: a token file
/// that does not exist yet, a mistyped folder, a renamed push with a message, files that cannot
/// be read.
@Suite(.timeLimit(.minutes(1))) struct FirstRunTests {
    @Test func serveWritesAFreshTokenToAMissingTokenFileAndPushUsesIt() async throws {
        let specs = try TemporarySpecFolder(prefix: "livery-first-run")
        try TestDaemon.writeExample(to: specs)
        let local = try TemporarySpecFolder(prefix: "livery-first-run-token")
        let tokenPath = local.url("token").path
        let serve = try await Subprocess(["serve", specs.url.path, "--port", "0", "--token-file", tokenPath])
        defer { if serve.process.isRunning { serve.process.interrupt() } }
        let listening = try await TestDaemon.eventually(timeout: .seconds(10)) { serve.stdout.contains("on http://") }
        try #require(listening, "serve did not start; stderr: \(serve.stderr)")
        #expect(serve.stdout.contains("livery: push token written to \(tokenPath) (mode 0600)"), "\(serve.stdout)")
        let attributes = try FileManager.default.attributesOfItem(atPath: tokenPath)
        #expect(attributes[.posixPermissions] as? Int == 0o600)
        let token = try TokenFile.read(URL(filePath: tokenPath))
        #expect(!serve.stdout.contains(token.text) && !serve.stderr.contains(token.text), "the token is never printed")

        let base = try #require(serve.stdout.firstMatch(of: /on (http:\/\/127\.0\.0\.1:\d+)/)?.1).description
        try local.write("extra.yaml", "specs:\n  extra: []\n")
        let pushed = try await Subprocess.run([
            "push", local.url("extra.yaml").path, "--server", base, "--token-file", tokenPath,
        ])
        #expect(pushed.status == 0, "stderr: \(pushed.stderr)")

        // A second daemon on the same file reads the token the first one wrote.
        let second = try await Subprocess(["serve", specs.url.path, "--port", "0", "--token-file", tokenPath])
        defer { if second.process.isRunning { second.process.interrupt() } }
        #expect(try await TestDaemon.eventually(timeout: .seconds(10)) { second.stdout.contains("on http://") })
        #expect(second.stdout.contains("livery: push token read from \(tokenPath)"), "\(second.stdout)")
        #expect(try TokenFile.read(URL(filePath: tokenPath)).text == token.text)
        serve.process.terminate()
        second.process.terminate()
        #expect(try await serve.exitStatus() == 0)
        #expect(try await second.exitStatus() == 0)
    }

    @Test func serveRefusesAMissingFolderAtOnceUnlessToldToWait() async throws {
        let parent = try TemporarySpecFolder(prefix: "livery-first-run")
        let missing = parent.url("Spces").path
        let runtime = try TemporarySpecFolder(prefix: "livery-first-run-runtime")
        let environment = ["XDG_RUNTIME_DIR": runtime.url.path]
        let started = ContinuousClock.now
        let refused = try await Subprocess.run(["serve", missing, "--port", "0"], environment: environment)
        #expect(refused.status != 0)
        #expect(ContinuousClock.now - started < .seconds(10))
        #expect(
            refused.stderr.contains(
                "the specs folder '\(missing)' does not exist; create it, or give --wait-for-folder to serve it once it appears"
            ), "\(refused.stderr)")
        #expect(
            !FileManager.default.fileExists(atPath: runtime.url.path + "/livery/token"),
            "no token for a daemon that never ran")

        try parent.write("file.yaml", "specs: {}\n")
        let notAFolder = try await Subprocess.run(
            ["serve", parent.url("file.yaml").path, "--port", "0"], environment: environment)
        #expect(notAFolder.status != 0)
        #expect(notAFolder.stderr.contains("'\(parent.url("file.yaml").path)' is not a folder"), "\(notAFolder.stderr)")

        // With --wait-for-folder it starts, and serves the folder once it appears.
        let waiting = try await Subprocess(
            ["serve", missing, "--port", "0", "--wait-for-folder"], environment: environment)
        defer { if waiting.process.isRunning { waiting.process.interrupt() } }
        #expect(try await TestDaemon.eventually(timeout: .seconds(10)) { waiting.stdout.contains("on http://") })
        let base = try #require(waiting.stdout.firstMatch(of: /on (http:\/\/127\.0\.0\.1:\d+)/)?.1).description
        try FileManager.default.createDirectory(atPath: missing, withIntermediateDirectories: false)
        try "specs:\n  late: []\n".write(toFile: missing + "/late.yaml", atomically: true, encoding: .utf8)
        let http = HTTP(base: base, token: "")
        #expect(
            try await TestDaemon.eventually(timeout: .seconds(10)) {
                try await http.get("/v1/spec").text.contains("late")
            })
        waiting.process.terminate()
        #expect(try await waiting.exitStatus() == 0)
    }

    @Test func pushAsWithAMessageIsOnePublish() async throws {
        try await TestDaemon.with { server in
            let local = try TemporarySpecFolder(prefix: "livery-first-run-push")
            let tokenFile = local.url("token").path
            try TestDaemon.token.write(toFile: tokenFile, atomically: true, encoding: .utf8)
            try local.write("draft.yaml", "specs:\n  draft: []\n")
            let draft = local.url("draft.yaml").path
            let published = try await Subprocess.run([
                "push", draft, "--as", "sub/final.yaml", "-m", "rename the draft", "--server", server.base,
                "--token-file", tokenFile,
            ])
            #expect(published.status == 0, "\(published.stderr)")
            #expect(published.stdout.contains("published sub/final.yaml"), "\(published.stdout)")
            #expect(FileManager.default.fileExists(atPath: server.folder.url("sub/final.yaml").path))

            // With --if-match, the bundle's ETag: a stale one changes nothing.
            try local.write("other.yaml", "specs:\n  other: []\n")
            let other = local.url("other.yaml").path
            let stale = try await Subprocess.run([
                "push", other, "--as", "sub/other.yaml", "-m", "late", "--if-match", #""0000000000000000""#,
                "--server", server.base, "--token-file", tokenFile,
            ])
            #expect(stale.status == 1)
            #expect(stale.stderr.contains("412"), "\(stale.stderr)")
            #expect(!FileManager.default.fileExists(atPath: server.folder.url("sub/other.yaml").path))
            let etag = try #require(try await server.http.get("/v1/spec").header("ETag"))
            let current = try await Subprocess.run([
                "push", other, "--as", "sub/other.yaml", "-m", "on time", "--if-match", etag,
                "--server", server.base, "--token-file", tokenFile,
            ])
            #expect(current.status == 0, "\(current.stderr)")
            #expect(FileManager.default.fileExists(atPath: server.folder.url("sub/other.yaml").path))

            // Only the ambiguous is refused: one name for several files.
            try local.write("second.yaml", "specs:\n  second: []\n")
            let ambiguous = try await Subprocess.run([
                "push", draft, local.url("second.yaml").path, "--as", "x.yaml", "--server", server.base,
                "--token-file", tokenFile,
            ])
            #expect(ambiguous.status != 0)
            #expect(
                ambiguous.stderr.contains("--as x.yaml names the path of one file; give exactly one file with it"),
                "\(ambiguous.stderr)")
        }
    }

    @Test func fileErrorsNameTheFileAndTheReasonInOurWords() async throws {
        let local = try TemporarySpecFolder(prefix: "livery-first-run-files")
        try TestDaemon.token.write(to: local.url("token"), atomically: true, encoding: .utf8)
        let foundationWords = [
            "The operation could not be completed", "doesn’t exist", "doesn't exist", "Error Domain",
        ]
        func expectOurWords(
            _ text: String, _ expected: String, sourceLocation: Testing.SourceLocation = #_sourceLocation
        ) {
            #expect(text.contains(expected), "\(text)", sourceLocation: sourceLocation)
            for words in foundationWords {
                #expect(!text.contains(words), "\(text)", sourceLocation: sourceLocation)
            }
        }
        let missing = local.url("missing.yaml").path
        let push = try await Subprocess.run(["push", missing, "--token-file", local.url("token").path])
        expectOurWords(push.stderr, "\(missing): error: cannot read the file: no such file or folder")
        let folder = local.url("folder.yaml").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        let pushFolder = try await Subprocess.run(["push", folder, "-m", "x", "--token-file", local.url("token").path])
        expectOurWords(pushFolder.stderr, "\(folder): error: cannot read the file: it is a folder, not a file")

        let noToken = local.url("no-token").path
        let pushNoToken = try await Subprocess.run(["push", local.url("token").path, "--token-file", noToken])
        expectOurWords(pushNoToken.stderr, "cannot read the token file '\(noToken)': no such file or folder")

        let specs = try TemporarySpecFolder(prefix: "livery-first-run-specs")
        try TestDaemon.writeExample(to: specs)
        let tls = try await Subprocess.run([
            "serve", specs.url.path, "--port", "0", "--token-file", local.url("token").path, "--tls-cert",
            local.url("cert.pem").path, "--tls-key", local.url("key.pem").path,
        ])
        #expect(tls.status != 0)
        expectOurWords(tls.stderr, "\(local.url("cert.pem").path): no such file or folder")

        let cacert = try await Subprocess.run([
            "push", missing, "--cacert", local.url("ca.pem").path, "--token-file", local.url("token").path,
        ])
        expectOurWords(cacert.stderr, "--cacert \(local.url("ca.pem").path): no such file or folder")

        // A token folder other users can write in could have the token swapped: refused.
        let open = try TemporarySpecFolder(prefix: "livery-first-run-open")
        #expect(chmod(open.url.path, 0o777) == 0)
        let exposed = try await Subprocess.run([
            "serve", specs.url.path, "--port", "0", "--token-file", open.url("token").path,
        ])
        #expect(exposed.status != 0)
        expectOurWords(exposed.stderr, "the token folder '\(open.url.path)' has mode 777: other users can write in it")
        #expect(!FileManager.default.fileExists(atPath: open.url("token").path))
    }
}
