import Foundation
import LiveryTestSupport
import LiveryTesting
import Testing

/// `livery serve` warns loudly, on stderr whatever the log level, when it listens beyond this
/// machine without TLS, and says nothing of the kind on loopback; the studio follows the same
/// line, on by default on loopback or with TLS.
@Suite(.timeLimit(.minutes(1))) struct ServeWarningTests {
    @Test(arguments: [("0.0.0.0", true), ("127.0.0.1", false)])
    func serveWarnsWhenItListensBeyondLoopback(host: String, warns: Bool) async throws {
        let specs = try TemporarySpecFolder(prefix: "livery-warn")
        try TestDaemon.writeExample(to: specs)
        let local = try TemporarySpecFolder(prefix: "livery-warn-token")
        try TestDaemon.token.write(to: local.url("token"), atomically: true, encoding: .utf8)
        let serve = try await Subprocess([
            "serve", specs.url.path, "--host", host, "--port", "0", "--token-file", local.url("token").path,
            "--log-level", "critical",
        ])
        defer { if serve.process.isRunning { serve.process.interrupt() } }
        let listening = try await TestDaemon.eventually(timeout: .seconds(10)) { serve.stdout.contains("on http://") }
        try #require(listening, "serve did not start; stderr: \(serve.stderr)")
        serve.process.terminate()
        #expect(try await serve.exitStatus() == 0)
        let warning = """
            livery: WARNING: listening on \(host), which is not a loopback address, without TLS: the push token \
            and the specs travel in clear text. Give --tls-cert and --tls-key, or put a TLS-terminating proxy in front \
            (README, "Security and TLS"), or listen on 127.0.0.1.
            """
        #expect(serve.stderr.contains(warning) == warns, "stderr: \(serve.stderr)")
        #expect(serve.stderr.contains("WARNING") == warns)
        // Without TLS the studio, which asks for the token, is off beyond loopback.
        #expect(serve.stdout.contains("/studio/") == !warns, "stdout: \(serve.stdout)")
    }

    @Test func serveDoesNotWarnBeyondLoopbackWithTLS() async throws {
        let specs = try TemporarySpecFolder(prefix: "livery-warn")
        try TestDaemon.writeExample(to: specs)
        let local = try TemporarySpecFolder(prefix: "livery-warn-token")
        try TestDaemon.token.write(to: local.url("token"), atomically: true, encoding: .utf8)
        let certificates = try await TestCertificates.make()
        defer { certificates.remove() }
        try await certificates.issue(
            commonName: "warn", certificate: local.url("cert.pem").path, key: local.url("key.pem").path)
        let serve = try await Subprocess([
            "serve", specs.url.path, "--host", "0.0.0.0", "--port", "0", "--token-file", local.url("token").path,
            "--tls-cert", local.url("cert.pem").path, "--tls-key", local.url("key.pem").path, "--log-level", "warning",
        ])
        defer { if serve.process.isRunning { serve.process.interrupt() } }
        let listening = try await TestDaemon.eventually(timeout: .seconds(10)) { serve.stdout.contains("on https://") }
        try #require(listening, "serve did not start; stderr: \(serve.stderr)")
        serve.process.terminate()
        #expect(try await serve.exitStatus() == 0)
        #expect(!serve.stderr.contains("WARNING") && !serve.stderr.contains("without TLS"), "stderr: \(serve.stderr)")
        // With TLS the studio is on by default on any address.
        #expect(serve.stdout.contains("livery: Livery Studio at https://0.0.0.0:"), "stdout: \(serve.stdout)")
    }
}
