public import Foundation

extension RemoteSpecSource {
    /// What a ``RemoteSpecSource`` trusts the bundles it applies for.
    public enum Trust: Hashable, Sendable {
        /// The server and everything between (TLS to the edge at best): what it answers is applied.
        case server
        /// The Update Framework: only a bundle the daemon's TUF repository (`livery serve
        /// --signing`, at `/v1/tuf/`) signs, fresh and never older than one trusted, is applied.
        /// `root` is the file URL of the trusted root metadata (`1.root.json` of `livery signing
        /// init`, shipped with the program). Only in the ``Mode/version`` mode.
        case tuf(root: URL)
    }
}
