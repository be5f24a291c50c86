import ArgumentParser
import AsyncHTTPClient
import Foundation
import Livery
import LiveryServer

/// `livery serve --etcd` options for a secured etcd: TLS files and an etcd user.
struct EtcdSecurityOptions: ParsableArguments {
    @Option(help: "With --etcd: a PEM file of the authorities that signed etcd's certificate (https endpoints).")
    var etcdCacert: String?

    @Option(help: "With --etcd: the daemon's PEM client certificate, for etcd's --client-cert-auth (with --etcd-key).")
    var etcdCert: String?

    @Option(help: "With --etcd: the private key of --etcd-cert.")
    var etcdKey: String?

    @Option(help: "With --etcd: the etcd user to authenticate as (with --etcd-password-file).")
    var etcdUser: String?

    @Option(help: "With --etcd: a file holding --etcd-user's password (one line; never on the command line).")
    var etcdPasswordFile: String?

    func validate() throws {
        guard (etcdCert == nil) == (etcdKey == nil) else {
            throw ValidationError("--etcd-cert and --etcd-key go together: give both, or neither")
        }
        guard (etcdUser == nil) == (etcdPasswordFile == nil) else {
            throw ValidationError("--etcd-user and --etcd-password-file go together: give both, or neither")
        }
        for path in [etcdCacert, etcdCert, etcdKey, etcdPasswordFile].compactMap(\.self) {
            do throws(FileSystemError) {
                try LocalFile.checkReadable(path)
            } catch {
                throw ValidationError(error.description)
            }
        }
    }

    /// Whether any of the options was given.
    var given: Bool { [etcdCacert, etcdCert, etcdKey, etcdUser, etcdPasswordFile].contains { $0 != nil } }

    /// The HTTP client to reach etcd with, over TLS when a file is named.
    func httpClient() throws -> HTTPClient {
        try EtcdStoreConfiguration.makeHTTPClient(caPath: etcdCacert, certificatePath: etcdCert, keyPath: etcdKey)
    }

    /// Makes `store` authenticate as `--etcd-user`, with the password read from its file (a
    /// trailing line break dropped).
    func authenticate(_ store: inout EtcdStoreConfiguration) throws {
        guard let etcdUser, let etcdPasswordFile else { return }
        var password = String(decoding: try LocalFile.contents(of: etcdPasswordFile), as: UTF8.self)
        if password.last?.isNewline == true { password.removeLast() }
        guard !password.isEmpty else {
            throw ValidationError("--etcd-password-file '\(etcdPasswordFile)' is empty")
        }
        store.authenticate(user: etcdUser, password: password)
    }
}
