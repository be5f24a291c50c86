import Foundation
import LiveryServer
import LiveryTestSupport
import LiveryTesting
import Testing

/// The real `livery serve` and `livery push` executables, as a user runs them.
@Suite(.timeLimit(.minutes(1))) struct ServeProcessTests {
    @Test func serveWritesATokenAcceptsPushesAndShutsDownGracefullyOnSIGTERM() async throws {
        let specs = try TemporarySpecFolder(prefix: "livery-serve")
        try TestDaemon.writeExample(to: specs)
        let runtime = try TemporarySpecFolder(prefix: "livery-runtime")
        let environment = ["XDG_RUNTIME_DIR": runtime.url.path]
        let start = ContinuousClock.now
        let serve = try await Subprocess(
            ["serve", specs.url.path, "--port", "0", "--log-level", "warning"], environment: environment)
        defer { if serve.process.isRunning { serve.process.interrupt() } }

        let listening = try await TestDaemon.eventually(timeout: .seconds(10)) { serve.stdout.contains("on http://") }
        try #require(listening, "serve did not start; stderr: \(serve.stderr)")
        #expect(ContinuousClock.now - start < .seconds(5), "started in \(ContinuousClock.now - start)")
        let base = try #require(serve.stdout.firstMatch(of: /on (http:\/\/127\.0\.0\.1:\d+)/)?.1).description
        let tokenPath = runtime.url.path + "/livery/token"
        #expect(serve.stdout.contains("livery: push token written to \(tokenPath) (mode 0600)"))
        let attributes = try FileManager.default.attributesOfItem(atPath: tokenPath)
        #expect(attributes[.posixPermissions] as? Int == 0o600)
        let token = try TokenFile.read(URL(filePath: tokenPath))
        #expect(!serve.stdout.contains(token.text) && !serve.stderr.contains(token.text), "the token is never printed")

        // livery push finds the token where serve wrote it.
        let local = try TemporarySpecFolder(prefix: "livery-push")
        try local.write("extra.yaml", "specs:\n  extra:\n    - { type: CornerRadius, radius: 2 }\n")
        let pushed = try await Subprocess.run(
            ["push", local.url("extra.yaml").path, "--server", base], environment: environment)
        #expect(pushed.status == 0, "stderr: \(pushed.stderr)")
        #expect(pushed.stdout.contains("created extra.yaml (ETag \""))
        #expect(FileManager.default.fileExists(atPath: specs.url("extra.yaml").path))

        // A long-poll in flight when SIGTERM arrives is answered, then serve exits 0.
        let http = HTTP(base: base, token: token.text)
        #expect(try await TestDaemon.eventually { try await http.get("/v1/spec").text.contains("extra") })
        let etag = try #require(try await http.get("/v1/spec").header("ETag"))
        let poll = Task {
            try await http.get("/v1/spec?wait=30s", headers: [("If-None-Match", etag)], timeout: .seconds(30))
        }
        #expect(
            try await TestDaemon.eventually { try await http.get("/v1/status").json()["waitingClients"] as? Int == 1 })
        let signalled = ContinuousClock.now
        serve.process.terminate()  // SIGTERM
        let reply = try await poll.value
        #expect(reply.status == 304)
        #expect(try await serve.exitStatus() == 0, "stderr: \(serve.stderr)")
        #expect(serve.process.terminationReason == .exit)
        #expect(ContinuousClock.now - signalled < .seconds(5))
    }

    @Test func pushPrintsTheServersErrorsLikeACompilerAndFails() async throws {
        try await TestDaemon.with { server in
            let local = try TemporarySpecFolder(prefix: "livery-push")
            let tokenFile = local.url("token")
            try TestDaemon.token.write(to: tokenFile, atomically: true, encoding: .utf8)
            try local.write("bad.yaml", "specs:\n  x:\n    - { type: Sparkle }\n    - { type: CornerRadius }\n")
            let bad = local.url("bad.yaml").path
            let refused = try await Subprocess.run([
                "push", bad, "--server", server.base, "--token-file", tokenFile.path,
            ])
            #expect(refused.status == 1)
            #expect(
                refused.stderr == """
                    \(bad):3:15: error: unknown trait type 'Sparkle'
                    \(bad):4:7: error: missing key 'radius' in trait CornerRadius
                    error: push refused, 422 The specs would not validate: 2 errors; nothing was written; note: this daemon knows no trait type 'Sparkle'; if your program registers it, build your own livery with LiveryCommand.main(registry:) on that registry (README, "Your own traits")

                    """)
            #expect(!FileManager.default.fileExists(atPath: server.folder.url("bad.yaml").path))

            try local.write("good.yaml", "specs:\n  good: []\n")
            let renamed = try await Subprocess.run([
                "push", local.url("good.yaml").path, "--as", "sub/renamed.yaml", "--server", server.base,
                "--token-file", tokenFile.path,
            ])
            #expect(renamed.status == 0, "\(renamed.stderr)")
            #expect(FileManager.default.fileExists(atPath: server.folder.url("sub/renamed.yaml").path))

            let wrongToken = local.url("wrong")
            try "nope\n".write(to: wrongToken, atomically: true, encoding: .utf8)
            let unauthorised = try await Subprocess.run([
                "push", local.url("good.yaml").path, "--server", server.base, "--token-file", wrongToken.path,
            ])
            #expect(unauthorised.status == 1)
            #expect(unauthorised.stderr.contains("error: push refused, 401 Unauthorized"))
            #expect(unauthorised.stderr.contains("(check --token-file)"))

            let forbidden = try await Subprocess.run([
                "push", local.url("good.yaml").path, "--as", "../escape.yaml", "--server", server.base,
                "--token-file", tokenFile.path,
            ])
            #expect(forbidden.status == 1)
            #expect(forbidden.stderr.contains("400 Forbidden spec path: '../escape.yaml' leaves the specs folder"))
        }
    }
}
