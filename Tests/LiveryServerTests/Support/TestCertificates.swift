import Foundation

/// A certificate authority and server certificates for 127.0.0.1, made with `openssl` at test
/// time in a fresh temporary folder.
///
/// openssl is waited for on a Dispatch thread: blocking one of the few cooperative threads
/// would stall the in-process daemons of the tests running beside this one.
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
            ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "2",
             "-subj", "/CN=Livery Test CA", "-keyout", folder.appending(path: "ca-key.pem").path, "-out", made.caPath])
        return made
    }

    /// Issues a certificate for 127.0.0.1 and localhost named `commonName`, writing it and its
    /// key to `certificate` and `key` (paths in any folder).
    func issue(commonName: String, certificate: String, key: String) async throws {
        let request = folder.appending(path: "\(commonName).csr").path
        let extensions = folder.appending(path: "\(commonName).ext")
        try "subjectAltName=IP:127.0.0.1,DNS:localhost\n".write(to: extensions, atomically: true, encoding: .utf8)
        try await Self.openssl(
            ["req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-subj", "/CN=\(commonName)",
             "-keyout", key, "-out", request])
        try await Self.openssl(
            ["x509", "-req", "-in", request, "-CA", caPath, "-CAkey", folder.appending(path: "ca-key.pem").path,
             "-CAcreateserial", "-days", "2", "-extfile", extensions.path, "-out", certificate])
    }

    func remove() {
        try? FileManager.default.removeItem(at: folder)
    }

    private static func openssl(_ arguments: [String]) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            DispatchQueue.global().async { continuation.resume(with: Result { try opensslBlocking(arguments) }) }
        }
    }

    private static func opensslBlocking(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(filePath: "/usr/bin/env")
        process.arguments = ["openssl"] + arguments
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw HTTPTestError("openssl \(arguments.joined(separator: " ")): \(String(decoding: message, as: UTF8.self))")
        }
    }
}
