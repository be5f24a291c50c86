import Foundation
import LiveryRemote
import LiveryServer
import LiveryTesting
import Testing

/// `livery serve --tls-cert --tls-key`: HTTPS with TLS 1.2 or later, a certificate rotated on
/// disk served to the next connection, and clients that trust a given CA file. Certificates
/// are made with openssl for each test; curl and openssl s_client are the real clients.
@Suite(.timeLimit(.minutes(1))) struct TLSTests {
    /// An authority, a certificate issued as `first` in a temporary folder, and the daemon
    /// serving it.
    private static func withTLSDaemon(
        _ body: (TestDaemon, TestCertificates, TLSFiles) async throws -> Void
    ) async throws {
        let certificates = try await TestCertificates.make()
        defer { certificates.remove() }
        let files = TLSFiles(
            certificatePath: certificates.folder.appending(path: "server.pem").path,
            keyPath: certificates.folder.appending(path: "server-key.pem").path)
        try await certificates.issue(commonName: "first", certificate: files.certificatePath, key: files.keyPath)
        try await TestDaemon.with(configure: { $0.tls = files }) { server in
            try await body(server, certificates, files)
        }
    }

    @Test func curlTrustingTheCAGetsTheBundleAndOtherwiseRefuses() async throws {
        try await Self.withTLSDaemon { server, certificates, _ in
            let url = "https://127.0.0.1:\(server.port)/v1/spec"
            let head = try await Curl.run(["-sS", "--cacert", certificates.caPath, "-o", "/dev/null", "-D", "-", url])
            #expect(head.hasPrefix("HTTP/1.1 200 OK\r\n") && head.contains("ETag: \""), "\(head)")
            let body = try await Curl.run(["-sS", "--cacert", certificates.caPath, url])
            #expect(body.hasPrefix("{") && body.contains(#""card""#), "\(body)")
            await #expect(throws: (any Error).self) { try await Curl.run(["-sS", url]) }
            await #expect(throws: (any Error).self) {
                try await Curl.run(["-sS", "http://127.0.0.1:\(server.port)/v1/spec"])
            }
        }
    }

    @Test func tlsOlderThan1Point2IsRefused() async throws {
        try await Self.withTLSDaemon { server, _, _ in
            let old = try await Self.shell(
                "echo | openssl s_client -connect 127.0.0.1:\(server.port) -tls1_1 -cipher DEFAULT@SECLEVEL=0 2>&1; true"
            )
            #expect(old.contains("alert protocol version"), "\(old)")
            let current = try await Self.shell(
                "echo | openssl s_client -connect 127.0.0.1:\(server.port) -tls1_2 2>&1; true")
            #expect(current.contains("Protocol  : TLSv1.2") || current.contains("Protocol: TLSv1.2"), "\(current)")
        }
    }

    @Test func aRotatedCertificateIsServedToTheNextConnection() async throws {
        try await Self.withTLSDaemon { server, certificates, files in
            #expect(try await Self.subject(port: server.port).contains("CN = first"))
            // Issued elsewhere, then moved over the served files, as cert-manager swaps them.
            let staging = certificates.folder.appending(path: "next").path
            try FileManager.default.createDirectory(atPath: staging, withIntermediateDirectories: true)
            try await certificates.issue(commonName: "second", certificate: staging + "/c.pem", key: staging + "/k.pem")
            #expect(
                rename(staging + "/k.pem", files.keyPath) == 0 && rename(staging + "/c.pem", files.certificatePath) == 0
            )
            #expect(try await Self.subject(port: server.port).contains("CN = second"))
            // A certificate that does not load keeps the last good one.
            try "not a certificate".write(toFile: files.certificatePath, atomically: true, encoding: .utf8)
            #expect(try await Self.subject(port: server.port).contains("CN = second"))
            let body = try await Curl.run([
                "-sS", "--cacert", certificates.caPath, "https://127.0.0.1:\(server.port)/healthz",
            ])
            #expect(body.contains(#""status":"ok""#))
        }
    }

    @Test func followTrustsTheGivenCAFile() async throws {
        try await Self.withTLSDaemon { server, certificates, _ in
            let url = try #require(URL(string: "https://127.0.0.1:\(server.port)"))
            let source = RemoteSpecSource(
                url: url, configuration: .init(trustedCertificatesPath: certificates.caPath))
            var updates = source.makeAsyncIterator()
            let first = try #require(await updates.next())
            #expect(first.spec?.identifiers.contains("card") == true, "\(first)")
        }
    }

    /// The certificate subject a new connection is shown.
    private static func subject(port: Int) async throws -> String {
        try await shell("echo | openssl s_client -connect 127.0.0.1:\(port) 2>/dev/null | openssl x509 -noout -subject")
    }

    private static func shell(_ command: String) async throws -> String {
        String(decoding: try await ExternalCommand.run(["sh", "-c", command]).output, as: UTF8.self)
    }
}
