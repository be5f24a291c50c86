import AsyncHTTPClient
import Foundation
import LiveryTestSupport
import LiveryTesting
import Logging
import Testing

@testable import LiveryEtcd
@testable import LiveryServer

/// A daemon on an etcd that requires TLS, a client certificate and a user: `--etcd-cacert`,
/// `--etcd-cert`, `--etcd-key`, `--etcd-user` and `--etcd-password-file`.
@Suite(.timeLimit(.minutes(2))) struct EtcdSecurityTests {
    private static let logger = Logger(label: "etcd.test") { _ in SwiftLogNoOpLogHandler() }
    private static let specs = "/livery/specs/"

    private static func code(of operation: () async throws -> Void) async -> EtcdError.Code? {
        do {
            try await operation()
            return nil
        } catch let error as EtcdError {
            return error.code
        } catch {
            return .protocolError
        }
    }

    @Test func theClientAuthenticatesRenewsAnExpiredTokenAndIsRefusedWithoutCredentials() async throws {
        try await SecuredEtcd.with { etcd in
            let http = EtcdClient.makeHTTPClient(tls: try etcd.security.tlsConfiguration())
            let anonymousTLS = EtcdClient.makeHTTPClient(
                tls: try EtcdSecurity(caPath: etcd.certificates.caPath).tlsConfiguration())
            let outcome: Result<Void, any Error>
            do {
                let client = EtcdClient(
                    endpoints: [etcd.endpoint], http: http, credentials: etcd.security.credentials, logger: Self.logger)
                let (written, _) = try await client.transaction(
                    if: [], then: [.put(key: Self.specs + "a.yaml", value: Data("specs: {}\n".utf8))])
                #expect(written)
                let first = try await client.authorization()

                // etcd forgets a token a second after its last use (--auth-token-ttl 1).
                try await Task.sleep(for: .milliseconds(2500))
                let (keys, _) = try await client.range(key: Self.specs, rangeEnd: EtcdClient.prefixEnd(Self.specs))
                #expect(keys.map(\.key) == [Self.specs + "a.yaml"])
                #expect(try await client.authorization() != first, "the expired token was replaced by a new one")

                #expect(
                    await Self.code { _ = try await client.range(key: "/elsewhere", rangeEnd: "/elsewhf") }
                        == .permissionDenied, "the livery role reaches only /livery/")
                // Without a token etcd 3.4 answers "permission denied" (or "user name is empty").
                let anonymous = EtcdClient(endpoints: [etcd.endpoint], http: http, logger: Self.logger)
                let refusal = await Self.code {
                    _ = try await anonymous.range(key: Self.specs, rangeEnd: "/livery/spect")
                }
                #expect(refusal == .permissionDenied || refusal == .unauthenticated, "\(String(describing: refusal))")
                let wrong = EtcdClient(
                    endpoints: [etcd.endpoint], http: http,
                    credentials: EtcdCredentials(user: SecuredEtcd.user, password: "wrong"), logger: Self.logger)
                #expect(
                    await Self.code { _ = try await wrong.range(key: Self.specs, rangeEnd: "/livery/spect") }
                        == .unauthenticated)
                let noCertificate = EtcdClient(
                    endpoints: [etcd.endpoint], http: anonymousTLS, credentials: etcd.security.credentials,
                    logger: Self.logger)
                #expect(
                    await Self.code { _ = try await noCertificate.range(key: Self.specs, rangeEnd: "/livery/spect") }
                        == .unavailable, "without a client certificate, etcd refuses the TLS handshake")
                outcome = .success(())
            } catch {
                outcome = .failure(error)
            }
            try await http.shutdown()
            try await anonymousTLS.shutdown()
            try outcome.get()
        }
    }

    @Test func liveryServeReadsWritesAndFollowsASecuredEtcd() async throws {
        try await SecuredEtcd.with { etcd in
            let runtime = try TemporarySpecFolder(prefix: "livery-runtime")
            let environment = ["XDG_RUNTIME_DIR": runtime.url.path]
            let serve = try await Subprocess(
                [
                    "serve", "--etcd", etcd.endpoint.absoluteString, "--etcd-cacert", etcd.certificates.caPath,
                    "--etcd-cert", etcd.clientCertificate, "--etcd-key", etcd.clientKey, "--etcd-user",
                    SecuredEtcd.user,
                    "--etcd-password-file", etcd.passwordFile, "--port", "0", "--log-level", "warning",
                ], environment: environment)
            defer { if serve.process.isRunning { serve.process.interrupt() } }
            try #require(
                try await TestDaemon.eventually(timeout: .seconds(10)) { serve.stdout.contains("on http://") },
                "serve did not start; stderr: \(serve.stderr)")
            let base = try #require(serve.stdout.firstMatch(of: /on (http:\/\/127\.0\.0\.1:\d+)/)?.1).description
            let token = try TokenFile.read(URL(filePath: runtime.url.path + "/livery/token"))
            let http = HTTP(base: base, token: token.text)

            let published = try await http.publish(TestDaemon.exampleFiles(), message: "first")
            #expect(published.status == 200, "\(published.text); stderr: \(serve.stderr)")
            #expect(
                try await etcd.etcdctl(["get", Self.specs + "card.yaml", "--print-value-only"]).contains("CornerRadius")
            )

            // A change made in etcd by someone else reaches the daemon through its authenticated watch.
            try await etcd.etcdctl(["put", Self.specs + "extra.yaml", "specs:\n  extra: []\n"])
            #expect(try await TestDaemon.eventually { try await http.get("/v1/spec").text.contains("extra") })
            #expect(try await http.get("/readyz").status == 200)

            // After the daemon's token expired, a write authenticates again and goes through.
            try await Task.sleep(for: .milliseconds(2500))
            let again = try await http.publish(["extra.yaml": "specs:\n  extra2: []\n"], message: "second")
            #expect(again.status == 200, "\(again.text); stderr: \(serve.stderr)")

            serve.process.terminate()
            #expect(try await serve.exitStatus() == 0, "stderr: \(serve.stderr)")
        }
    }

    @Test func theSecurityOptionsAreCheckedBeforeServing() async throws {
        let folder = try TemporarySpecFolder(prefix: "livery-etcd-options")
        let password = folder.url("password").path
        try folder.write("password", "secret\n")
        for (arguments, message) in [
            (["--etcd-user", "livery"], "--etcd-user and --etcd-password-file go together"),
            (["--etcd-cert", password], "--etcd-cert and --etcd-key go together"),
            (["--etcd-cacert", password], "the etcd TLS files need https:// endpoints"),
        ] {
            let run = try await Subprocess.run(["serve", "--etcd", "http://127.0.0.1:1", "--port", "0"] + arguments)
            #expect(run.status != 0)
            #expect(run.stderr.contains(message), "\(arguments): \(run.stderr)")
        }
        let withoutEtcd = try await Subprocess.run(
            ["serve", folder.url.path, "--etcd-user", "livery", "--etcd-password-file", password, "--port", "0"])
        #expect(withoutEtcd.stderr.contains("need --etcd"), "\(withoutEtcd.stderr)")
    }
}
