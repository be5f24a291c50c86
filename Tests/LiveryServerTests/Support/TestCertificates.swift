import Foundation

/// A certificate authority and server certificates for 127.0.0.1, made with `openssl` at test
/// time in a fresh temporary folder.
struct TestCertificates: Sendable {
    let folder: URL
    /// The authority's certificate, what clients are told to trust.
    var caPath: String { folder.appending(path: "ca.pem").path }

    /// Makes the authority.
    static func make() async throws -> TestCertificates {
        let folder = FileManager.default.temporaryDirectory.appending(path: "livery-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let made = TestCertificates(folder: folder)
        try await openssl(
            [
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "2",
                "-subj", "/CN=Livery Test CA", "-keyout", folder.appending(path: "ca-key.pem").path, "-out",
                made.caPath,
            ])
        return made
    }

    /// Issues a certificate for 127.0.0.1 and localhost named `commonName`, writing it and its
    /// key to `certificate` and `key` (paths in any folder); `subject` replaces the default
    /// `/CN=<commonName>` (etcd's gateway refuses client certificates with a common name).
    func issue(commonName: String, subject: String? = nil, certificate: String, key: String) async throws {
        let request = folder.appending(path: "\(commonName).csr").path
        let extensions = folder.appending(path: "\(commonName).ext")
        try "subjectAltName=IP:127.0.0.1,DNS:localhost\n".write(to: extensions, atomically: true, encoding: .utf8)
        try await Self.openssl(
            [
                "req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-subj",
                subject ?? "/CN=\(commonName)",
                "-keyout", key, "-out", request,
            ])
        try await Self.openssl(
            [
                "x509", "-req", "-in", request, "-CA", caPath, "-CAkey", folder.appending(path: "ca-key.pem").path,
                "-CAcreateserial", "-days", "2", "-extfile", extensions.path, "-out", certificate,
            ])
    }

    func remove() {
        try? FileManager.default.removeItem(at: folder)
    }

    private static func openssl(_ arguments: [String]) async throws {
        _ = try await ExternalCommand.runChecked(["openssl"] + arguments)
    }
}
