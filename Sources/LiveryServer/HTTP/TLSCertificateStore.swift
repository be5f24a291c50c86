import CDispatch
import Foundation
import Livery
import Logging
import NIOSSL
import Synchronization

/// The daemon's TLS context, made from ``TLSFiles`` and made again when either file changes on
/// disk, so a renewed certificate (cert-manager, certbot) is served without a restart: each new
/// connection gets the context of the files as they are when it arrives; connections already
/// open keep theirs.
///
/// A change is seen by the files' `stat` (device, inode, size, modification time; symbolic
/// links followed, so a Kubernetes secret's `..data` swap counts), checked once per new
/// connection: a few microseconds, and no watcher to keep. A pair that does not load (a key
/// written before its certificate, say) keeps the last good context and is tried again on the
/// next connection. Only TLS 1.2 and 1.3 are offered.
final class TLSCertificateStore: Sendable {
    private struct Loaded {
        var stamps: [FileStamp]
        var context: NIOSSLContext
        /// The stamps of a pair that failed to load, so the failure is logged once.
        var failedStamps: [FileStamp]?
    }

    let files: TLSFiles
    private let logger: Logger
    private let loaded: Mutex<Loaded>

    /// Reads the files; throws an error naming the file when they do not load.
    init(files: TLSFiles, logger: Logger) throws {
        self.files = files
        self.logger = logger
        let stamps = try FileStamp.of(files)
        loaded = Mutex(Loaded(stamps: stamps, context: try Self.context(for: files), failedStamps: nil))
    }

    /// The context for a new connection: the current one, or a new one if the files changed.
    func context() -> NIOSSLContext {
        let current = loaded.withLock { ($0.stamps, $0.context, $0.failedStamps) }
        let stamps: [FileStamp]
        do {
            stamps = try FileStamp.of(files)
        } catch {
            logger.warning(
                "cannot read the TLS files; serving the last good certificate", metadata: ["livery.error": "\(error)"])
            return current.1
        }
        guard stamps != current.0, stamps != current.2 else { return current.1 }
        do {
            let context = try Self.context(for: files)
            loaded.withLock { $0 = Loaded(stamps: stamps, context: context, failedStamps: nil) }
            logger.notice("reloaded the TLS certificate", metadata: ["livery.certificate": "\(files.certificatePath)"])
            return context
        } catch {
            loaded.withLock { $0.failedStamps = stamps }
            logger.warning(
                "new TLS files do not load; serving the last good certificate", metadata: ["livery.error": "\(error)"])
            return current.1
        }
    }

    private static func context(for files: TLSFiles) throws -> NIOSSLContext {
        // Read here rather than by NIOSSL, so that a file that cannot be read says why in
        // Livery's words, and a file that can is judged on its content only.
        let (certificateBytes, keyBytes): (Data, Data)
        do throws(FileSystemError) {
            (certificateBytes, keyBytes) = (
                try LocalFile.contents(of: files.certificatePath), try LocalFile.contents(of: files.keyPath)
            )
        } catch {
            throw DaemonError(error.description)
        }
        let chain: [NIOSSLCertificate]
        do {
            chain = try NIOSSLCertificate.fromPEMBytes(Array(certificateBytes))
        } catch {
            throw DaemonError("\(files.certificatePath): not a PEM certificate chain (\(error))")
        }
        guard !chain.isEmpty else { throw DaemonError("\(files.certificatePath): no certificate in the file") }
        let key: NIOSSLPrivateKey
        do {
            key = try NIOSSLPrivateKey(bytes: Array(keyBytes), format: .pem)
        } catch {
            throw DaemonError("\(files.keyPath): not a PEM private key (\(error))")
        }
        var configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(key))
        configuration.minimumTLSVersion = .tlsv12
        do {
            return try NIOSSLContext(configuration: configuration)
        } catch {
            throw DaemonError("\(files.keyPath) does not go with \(files.certificatePath) (\(error))")
        }
    }
}

/// What `stat` says of a file, enough to see that it was replaced or rewritten.
struct FileStamp: Hashable, Sendable {
    var device: UInt64
    var inode: UInt64
    var size: Int64
    var modified: Int64
    var modifiedNanoseconds: Int64

    /// The stamps of the certificate and the key.
    static func of(_ files: TLSFiles) throws -> [FileStamp] {
        try [FileStamp(path: files.certificatePath), FileStamp(path: files.keyPath)]
    }

    init(path: String) throws {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw DaemonError(FileSystemError(operation: "read", path: path, errno: errno).description)
        }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        modified = Int64(info.st_mtim.tv_sec)
        modifiedNanoseconds = Int64(info.st_mtim.tv_nsec)
    }
}
