import Foundation
import Livery
import LiveryEtcd
import Logging

extension EtcdSpecStore {
    /// What a key under the prefix is.
    private enum KeyKind {
        case spec(path: String)
        case record(name: String)
        case report(record: String)
        /// A publish record, or a key no daemon writes.
        case other
    }

    private func kind(of key: String) -> KeyKind {
        let relative = key.dropFirst(configuration.prefix.count)
        if relative.hasPrefix(EtcdStoreConfiguration.specsFolder) {
            return .spec(path: String(relative.dropFirst(EtcdStoreConfiguration.specsFolder.count)))
        }
        if let reports = relative.range(of: EtcdStoreConfiguration.reportsSuffix) {
            let name = relative[..<reports.lowerBound]
            return name.contains("/") ? .other : .report(record: String(name))
        }
        return relative.contains("/") ? .other : .record(name: String(relative))
    }

    /// Follows the whole prefix with one watch (``LiveryEtcd/EtcdClient/follow(prefix:silenceLimit:)``),
    /// which handles compaction, closed streams and back-off: the spec files at each revision
    /// that changed them, each record as written, each report added. Publish records are not
    /// followed (``history(limit:)`` reads them).
    func follow(
        loading loader: SpecFolderLoader, into receive: @escaping @Sendable (StoreEvent) async -> Void
    ) async {
        var files: [String: Data] = [:]
        for await event in client.follow(prefix: configuration.prefix, silenceLimit: configuration.watchSilenceLimit) {
            switch event {
            case .snapshot(let keyValues, let revision):
                files = [:]
                var others: [StoreEvent] = []
                for keyValue in keyValues {
                    switch kind(of: keyValue.key) {
                    case .spec(let path): files[path] = keyValue.value
                    case .record(let name):
                        others.append(
                            .record(StoreRecord(name: name, data: keyValue.value, version: keyValue.modRevision)))
                    case .report(let name): others.append(.report(record: name, keyValue.value))
                    case .other: break
                    }
                }
                await receive(.specs(stage(files, loader), revision: revision))
                for other in others { await receive(other) }
            case .changes(let events, let revision):
                var specsChanged = false
                for event in events {
                    let keyValue = event.keyValue
                    switch kind(of: keyValue.key) {
                    case .spec(let path):
                        files[path] = event.isDelete ? nil : keyValue.value
                        specsChanged = true
                    case .record(let name):
                        let data = event.isDelete ? nil : keyValue.value
                        await receive(
                            .record(
                                StoreRecord(name: name, data: data, version: event.isDelete ? 0 : keyValue.modRevision))
                        )
                    case .report(let name):
                        // Removed reports are those of an ended rollout, which count no more.
                        if !event.isDelete { await receive(.report(record: name, keyValue.value)) }
                    case .other: break
                    }
                }
                if specsChanged { await receive(.specs(stage(files, loader), revision: revision)) }
            case .reachable:
                await receive(.reachable)
            case .unreachable(let reason):
                await receive(.unreachable(reason))
            }
        }
    }

    /// The files as a source set, read by `loader`: a key or value put by hand that breaks the
    /// rules is an error located at its path.
    private func stage(_ files: [String: Data], _ loader: SpecFolderLoader) -> Result<SpecFolderLoader.Stage, any Error>
    {
        Result { try loader.read(sources(files)) }
    }
}
