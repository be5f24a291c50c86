import Foundation
import Livery
package import NIOSSL

/// How the daemon reaches a secured etcd: the authority to trust for etcd's certificate, its
/// own client certificate (for etcd's `--client-cert-auth`), and an etcd user with a password
/// (for `etcdctl auth enable`). Without them, whoever can reach etcd writes specs past the push
/// token; a deployment's etcd should require both.
package struct EtcdSecurity: Sendable, Hashable {
    /// A PEM file of the authorities that signed etcd's certificate (`--etcd-cacert`); `nil`
    /// trusts the system's.
    package var caPath: String?
    /// The daemon's PEM client certificate chain (`--etcd-cert`), with ``keyPath``.
    package var certificatePath: String?
    /// The private key of ``certificatePath`` (`--etcd-key`).
    package var keyPath: String?
    /// The etcd user (`--etcd-user`) and its password (read from `--etcd-password-file`).
    package var credentials: EtcdCredentials?

    /// Names the files and the user; every part is optional.
    package init(
        caPath: String? = nil, certificatePath: String? = nil, keyPath: String? = nil,
        credentials: EtcdCredentials? = nil
    ) {
        self.caPath = caPath
        self.certificatePath = certificatePath
        self.keyPath = keyPath
        self.credentials = credentials
    }

    /// Whether any TLS file is named: then endpoints must be `https` URLs.
    package var usesTLS: Bool { caPath != nil || certificatePath != nil || keyPath != nil }

    /// The client TLS configuration the files make (certificate verification always on), for
    /// ``EtcdClient/makeHTTPClient(tls:)``; `nil` when no file is named.
    ///
    /// - Throws: An ``EtcdError`` naming the file that cannot be read (in the words of
    ///   ``Livery/FileSystemError``) or parsed.
    package func tlsConfiguration() throws(EtcdError) -> TLSConfiguration? {
        guard usesTLS else { return nil }
        var configuration = TLSConfiguration.makeClientConfiguration()
        if let caPath {
            let pem = try Self.contents(of: caPath)
            do {
                configuration.trustRoots = .certificates(try NIOSSLCertificate.fromPEMBytes(pem))
            } catch {
                throw EtcdError(.protocolError, "the etcd CA file '\(caPath)' holds no PEM certificate: \(error)")
            }
        }
        if let certificatePath, let keyPath {
            let certificate = try Self.contents(of: certificatePath)
            do {
                configuration.certificateChain = try NIOSSLCertificate.fromPEMBytes(certificate).map {
                    .certificate($0)
                }
            } catch {
                throw EtcdError(
                    .protocolError,
                    "the etcd client certificate '\(certificatePath)' holds no PEM certificate: \(error)")
            }
            let key = try Self.contents(of: keyPath)
            do {
                configuration.privateKey = .privateKey(try NIOSSLPrivateKey(bytes: key, format: .pem))
            } catch {
                throw EtcdError(.protocolError, "the etcd client key '\(keyPath)' holds no PEM private key: \(error)")
            }
        }
        return configuration
    }

    /// The bytes of `path`, or an error in ``Livery/FileSystemError``'s words.
    private static func contents(of path: String) throws(EtcdError) -> [UInt8] {
        do throws(FileSystemError) {
            return Array(try LocalFile.contents(of: path))
        } catch {
            throw EtcdError(.protocolError, error.description)
        }
    }
}

/// An etcd user and its password, exchanged for a token at `/v3/auth/authenticate`.
package struct EtcdCredentials: Sendable, Hashable {
    /// The user's name.
    package var user: String
    /// The user's password.
    package var password: String

    /// Wraps a user and its password.
    package init(user: String, password: String) {
        self.user = user
        self.password = password
    }
}
