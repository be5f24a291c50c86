import Foundation
import LiveryEtcd
import LiveryServer
import LiveryTestSupport

/// One real etcd member as a deployment should run it: TLS on its client port with certificates
/// made by `openssl` for the test, `--client-cert-auth`, and authentication enabled with a root
/// user and a `livery` user whose role may read and write only under `/livery/`.
///
/// Tokens live `--auth-token-ttl 1` second after their last use, so a test sees one expire.
struct SecuredEtcd: Sendable {
    static let user = "livery"
    static let password = "livery-secret-0123"
    static let rootPassword = "root-secret-4567"

    let certificates: TestCertificates
    let clientPort: Int
    var endpoint: URL { URL(string: "https://127.0.0.1:\(clientPort)")! }
    /// The client certificate and key for the daemon. Without a common name: etcd 3.4's gateway
    /// refuses a request whose client certificate has one, once authentication is on.
    var clientCertificate: String { certificates.folder.appending(path: "client.pem").path }
    var clientKey: String { certificates.folder.appending(path: "client-key.pem").path }
    /// A file holding ``password``.
    var passwordFile: String { certificates.folder.appending(path: "password").path }

    /// The security options of a daemon that reaches this member as the `livery` user.
    var security: EtcdSecurity {
        EtcdSecurity(
            caPath: certificates.caPath, certificatePath: clientCertificate, keyPath: clientKey,
            credentials: EtcdCredentials(user: Self.user, password: Self.password))
    }

    /// Starts the member, sets its users up, runs `body`, then kills it and removes its files.
    static func with<T>(_ body: (SecuredEtcd) async throws -> T) async throws -> T {
        let certificates = try await TestCertificates.make()
        defer { certificates.remove() }
        let folder = certificates.folder
        try await certificates.issue(
            commonName: "etcd", certificate: folder.appending(path: "server.pem").path,
            key: folder.appending(path: "server-key.pem").path)
        try await certificates.issue(
            commonName: "client", subject: "/O=Livery daemon", certificate: folder.appending(path: "client.pem").path,
            key: folder.appending(path: "client-key.pem").path)
        try (password + "\n").write(to: folder.appending(path: "password"), atomically: true, encoding: .utf8)

        let etcd = SecuredEtcd(certificates: certificates, clientPort: try EtcdCluster.freePort())
        let peer = "http://127.0.0.1:\(try EtcdCluster.freePort())"
        let arguments = [
            "--name", "m0", "--data-dir", folder.appending(path: "data").path,
            "--listen-client-urls", etcd.endpoint.absoluteString, "--advertise-client-urls",
            etcd.endpoint.absoluteString, "--listen-peer-urls", peer, "--initial-advertise-peer-urls", peer,
            "--initial-cluster", "m0=\(peer)", "--cert-file", folder.appending(path: "server.pem").path,
            "--key-file", folder.appending(path: "server-key.pem").path, "--trusted-ca-file", certificates.caPath,
            "--client-cert-auth", "--auth-token-ttl", "1", "--log-level", "error",
        ]
        let process = ChildProcess(EtcdCluster.binary, arguments)
        try await process.start()
        do {
            let healthy = try await TestDaemon.eventually(timeout: .seconds(10)) {
                (try? await etcd.etcdctl(["endpoint", "health"], asRoot: false)) != nil
            }
            guard healthy else { throw HTTPTestError("the secured etcd did not become healthy within 10 s") }
            for command in [
                ["user", "add", "root:\(rootPassword)"], ["user", "grant-role", "root", "root"],
                ["role", "add", "livery"],
                ["role", "grant-permission", "livery", "readwrite", "/livery/", "--prefix=true"],
                ["user", "add", "\(user):\(password)"], ["user", "grant-role", user, "livery"], ["auth", "enable"],
            ] {
                try await etcd.etcdctl(command, asRoot: false)
            }
            let result = try await body(etcd)
            await stop(process)
            return result
        } catch {
            await stop(process)
            throw error
        }
    }

    private static func stop(_ process: ChildProcess) async {
        process.send(SIGKILL)
        await process.waitUntilExit()
    }

    /// Runs `etcdctl` over TLS with the client certificate, as root once authentication is on.
    @discardableResult
    func etcdctl(_ arguments: [String], asRoot: Bool = true) async throws -> String {
        var command = [
            "etcdctl", "--endpoints", endpoint.absoluteString, "--cacert", certificates.caPath, "--cert",
            clientCertificate, "--key", clientKey,
        ]
        if asRoot { command += ["--user", "root:\(Self.rootPassword)"] }
        return String(decoding: try await ExternalCommand.runChecked(command + arguments), as: UTF8.self)
    }
}
