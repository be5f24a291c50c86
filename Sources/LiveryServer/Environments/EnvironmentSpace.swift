import Foundation
import Livery
import LiveryEtcd
@_spi(LiveryInternal) import LiveryHTTP
import Logging

/// Where a daemon's environments live, chosen from its configuration in this one place: one
/// specs folder (the environment `default` alone), a folder of environments (one subfolder
/// each), or an etcd prefix (the default environment in today's layout under the prefix,
/// environment NAME in the same layout under `PREFIX/environments/NAME/`, and a key
/// `PREFIX/environment-names/NAME` saying that it exists).
enum EnvironmentSpace: Sendable {
    /// `livery serve DIR`.
    case folder(URL)
    /// `livery serve --environments ROOT`.
    case root(URL)
    /// `livery serve --etcd URL`; the client reads and writes the environments' names.
    case etcd(EtcdStoreConfiguration, EtcdClient)

    /// The name of the environment `livery serve DIR` serves and an etcd prefix of today's
    /// layout is.
    static let defaultName = "default"

    init(configuration: DaemonConfiguration, logger: Logger) {
        if let etcd = configuration.etcd {
            self = .etcd(
                etcd,
                EtcdClient(endpoints: etcd.endpoints, http: etcd.http, credentials: etcd.credentials, logger: logger))
        } else if let root = configuration.environmentsRoot {
            self = .root(root)
        } else {
            self = .folder(configuration.directory)
        }
    }

    /// The environments known at start-up: on etcd the default one (the others arrive with
    /// ``followNames(_:)``); in a folder of environments each subfolder with a valid name, the
    /// others logged and ignored.
    func initialNames(logger: Logger) -> [String] {
        guard case .root(let root) = self else { return [Self.defaultName] }
        let entries: [URL]
        do {
            entries = try FileManager.default.contentsOfDirectory(
                at: root, includingPropertiesForKeys: nil, options: [.skipsHiddenFiles])
        } catch {
            logger.error(
                "cannot list the environments folder",
                metadata: ["livery.path": "\(root.path)", "livery.error": "\(error)"])
            return []
        }
        var names: [String] = []
        for entry in entries where Self.isFolder(entry) {
            let name = entry.lastPathComponent
            if EnvironmentPath.isValidName(name) {
                names.append(name)
            } else {
                logger.warning(
                    "ignoring a folder whose name is not an environment name ([a-z][a-z0-9-]{0,62})",
                    metadata: ["livery.path": "\(entry.path)"])
            }
        }
        return names.sorted()
    }

    static func isFolder(_ url: URL) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    /// The store of the environment `name`.
    func store(of name: String, configuration: DaemonConfiguration, logger: Logger) -> any SpecStore {
        switch self {
        case .etcd(let etcd, _):
            var scoped = etcd
            scoped.prefix = etcdPrefix(of: name) ?? etcd.prefix
            return EtcdSpecStore(configuration: scoped, limits: configuration.readerLimits, logger: logger)
        case .folder(let directory), .root(let directory):
            let folder = folder(of: name) ?? directory
            return FolderSpecStore(
                directory: folder, limits: configuration.readerLimits, watch: configuration.watch,
                recordFile: { [configuration] record in configuration.stateFile(ofRecord: record, folder: folder) },
                history: FolderHistory(
                    folder: configuration.historyFolder(of: folder), limit: configuration.historyLimit),
                logger: logger)
        }
    }

    /// The etcd prefix of the environment `name`: the daemon's for the default one; `nil` on a folder.
    func etcdPrefix(of name: String) -> String? {
        guard case .etcd(let etcd, _) = self else { return nil }
        return name == Self.defaultName ? etcd.prefix : etcd.prefix + Self.etcdFolder + name + "/"
    }

    /// The specs folder of the environment `name`; `nil` on etcd.
    func folder(of name: String) -> URL? {
        switch self {
        case .folder(let directory): directory
        case .root(let root): root.appending(path: name, directoryHint: .isDirectory)
        case .etcd: nil
        }
    }

    /// The folder of the environments' keys under an etcd prefix.
    static let etcdFolder = "environments/"
    /// The folder of the keys that say which environments exist.
    static let etcdNamesFolder = "environment-names/"
}
