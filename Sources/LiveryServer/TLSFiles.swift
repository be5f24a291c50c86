/// Where the daemon's TLS certificate chain and private key are (`--tls-cert`, `--tls-key`):
/// PEM files, read at start and read again whenever either changes on disk.
public struct TLSFiles: Sendable, Hashable {
    /// The certificate chain, leaf first (PEM).
    public var certificatePath: String
    /// The leaf certificate's private key (PEM).
    public var keyPath: String

    /// Names the two files.
    public init(certificatePath: String, keyPath: String) {
        self.certificatePath = certificatePath
        self.keyPath = keyPath
    }
}
