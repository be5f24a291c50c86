import LiveryTUF
import Synchronization

/// The repository's metadata as the routes read it, from any thread, while the
/// ``TUFRepository`` changes it; with its targets by the path a client fetches them at.
final class ServedMetadata: Sendable {
    struct Files: Sendable {
        var metadata: RepositoryMetadata
        /// Every target of the kept targets metadata by its consistent-snapshot path,
        /// `{sha256}.bundle.json` or `candidate/{sha256}.livery.css`, with its name.
        var targets: [String: (name: String, file: TargetFile)]

        init(_ metadata: RepositoryMetadata) throws(TUFError) {
            self.metadata = metadata
            targets = [:]
            for text in metadata.targets.values {
                for (name, file) in try SignedMetadata<TargetsMetadata>(bytes: Array(text.utf8)).signed.targets {
                    guard let hash = file.sha256 else { continue }
                    let slash = name.lastIndex(of: "/").map { name.index(after: $0) } ?? name.startIndex
                    targets[name[..<slash] + hash + "." + name[slash...]] = (name, file)
                }
            }
        }
    }

    private let state = Mutex<Files?>(nil)

    var files: Files? {
        get { state.withLock { $0 } }
        set { state.withLock { $0 = newValue } }
    }
}
