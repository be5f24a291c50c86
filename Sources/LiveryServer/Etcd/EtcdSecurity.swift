import Foundation
package import NIOSSL

/// How the daemon reaches a secured etcd: the authority to trust for etcd's certificate, its
/// own client certificate (for etcd's `--client-cert-auth`), and an etcd user with a password
/// (for `etcdctl auth enable`). Without them, whoever can reach etcd writes specs past the push
/// token; a deployment's etcd should require both.
public struct EtcdSecurity: Sendable, Hashable {
    /// A PEM file of the authorities that signed etcd's certificate (`--etcd-cacert`); `nil`
    /// trusts the system's.
    public var caPath: String?
    /// The daemon's PEM client certificate chain (`--etcd-cert`), with ``keyPath``.
    public var certificatePath: String?
    /// The private key of ``certificatePath`` (`--etcd-key`).
    public var keyPath: String?
    /// The etcd user (`--etcd-user`) and its password (read from `--etcd-password-file`).
    public var credentials: EtcdCredentials?

    /// Names the files and the user; every part is optional.
    public init(
        caPath: String? = nil, certificatePath: String? = nil, keyPath: String? = nil,
        credentials: EtcdCredentials? = nil
    ) {
        self.caPath = caPath
        self.certificatePath = certificatePath
        self.keyPath = keyPath
        self.credentials = credentials
    }

    /// Whether any TLS file is named: then endpoints must be `https` URLs.
    public var usesTLS: Bool { caPath != nil || certificatePath != nil || keyPath != nil }

    /// The client TLS configuration the files make (certificate verification always on), for
    /// ``EtcdClient/makeHTTPClient(tls:)``; `nil` when no file is named.
    ///
    /// - Throws: An ``EtcdError`` naming the file that cannot be read or parsed.
    package func tlsConfiguration() throws(EtcdError) -> TLSConfiguration? {
        guard usesTLS else { return nil }
        var configuration = TLSConfiguration.makeClientConfiguration()
        if let caPath {
            do {
                configuration.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(caPath))
            } catch {
                throw EtcdError(.protocolError, "cannot read the etcd CA file '\(caPath)': \(error)")
            }
        }
        if let certificatePath, let keyPath {
            do {
                configuration.certificateChain = try NIOSSLCertificate.fromPEMFile(certificatePath).map {
                    .certificate($0)
                }
            } catch {
                throw EtcdError(
                    .protocolError, "cannot read the etcd client certificate '\(certificatePath)': \(error)")
            }
            do {
                configuration.privateKey = .privateKey(try NIOSSLPrivateKey(file: keyPath, format: .pem))
            } catch {
                throw EtcdError(.protocolError, "cannot read the etcd client key '\(keyPath)': \(error)")
            }
        }
        return configuration
    }
}

/// An etcd user and its password, exchanged for a token at `/v3/auth/authenticate`.
public struct EtcdCredentials: Sendable, Hashable {
    /// The user's name.
    public var user: String
    /// The user's password.
    public var password: String

    /// Wraps a user and its password.
    public init(user: String, password: String) {
        self.user = user
        self.password = password
    }
}
