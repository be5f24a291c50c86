import Foundation
import Livery
import LiveryHTTP

/// The publishes of a specs folder, and what the writes of its records did (``appendEvent(_:by:)``),
/// kept in the daemon's state folder (never in the specs folder, whose watcher would see them):
/// one manifest per revision, `revisions/<revision>.json` (when, why, by whom, the paths it
/// changed and each file's SHA-256), and each distinct file once, `blobs/<SHA-256>`, so a
/// publish that changes one file of a hundred stores one file.
///
/// Revisions count up from 1 per folder. At most `limit` manifests are kept; a blob no manifest
/// names is removed. Every file is written atomically, blobs flushed before the manifest that
/// names them and manifests removed before their blobs, so a crash at any point leaves every
/// manifest readable; the blobs and temporary files it left unnamed are removed the next time
/// the history is opened.
struct FolderHistory: Sendable {
    /// One revision: what `revisions/<revision>.json` holds.
    struct Manifest: Codable, Sendable {
        var revision: Int64
        var time: String
        var message: String
        var by: String
        var paths: [String]
        /// Each file's SHA-256 in hex, by path.
        var files: [String: String]
    }

    let folder: URL
    let limit: Int
    /// The manifests, by revision; read from disk when the history is first used.
    private var manifests: [Int64: Manifest]?

    init(folder: URL, limit: Int) {
        self.folder = folder
        self.limit = limit
    }

    private var revisionsFolder: URL { folder.appending(path: "revisions") }
    private var blobsFolder: URL { folder.appending(path: "blobs") }

    /// The newest publishes first, at most `count`.
    mutating func entries(limit count: Int) throws(FileSystemError) -> [HistoryEntry] {
        try opened().values.sorted { $0.revision > $1.revision }.prefix(count).map {
            HistoryEntry(revision: $0.revision, time: $0.time, message: $0.message, by: $0.by, paths: $0.paths)
        }
    }

    /// The files as they were at `revision`.
    mutating func sources(at revision: Int64) throws(StoreError) -> SpecSourceSet {
        let all = try storeError { () throws(FileSystemError) in try opened() }
        guard let manifest = all[revision] else {
            throw revision > (all.keys.max() ?? 0) ? .revisionInFuture(revision) : .revisionPruned(revision)
        }
        var sources = SpecSourceSet()
        for (path, hash) in manifest.files {
            let data = try storeError { () throws(FileSystemError) in
                try LocalFile.contents(of: blobsFolder.appending(path: hash).path)
            }
            do {
                try sources.set(path, to: data)
            } catch {
                throw .invalid([error])
            }
        }
        return sources
    }

    /// The paths whose bytes differ between the newest revision and `sources` (every path when
    /// there is no revision yet); empty when they hold the same files.
    mutating func changedPaths(to sources: SpecSourceSet) throws(FileSystemError) -> [String] {
        let all = try opened()
        let latest = all.keys.max().flatMap { all[$0]?.files } ?? [:]
        let now = Self.hashes(of: sources)
        return Set(latest.keys).union(now.keys).filter { latest[$0] != now[$0] }.sorted()
    }

    /// The blobs of a publish's new files, written to temporary files by ``keepBlobs(of:)`` and
    /// put in place by ``append(blobs:paths:message:by:at:)`` with the manifest that names them.
    struct StagedBlobs: Sendable {
        /// Each file's SHA-256 in hex, by path: what the manifest names.
        fileprivate var hashes: [String: String] = [:]
        fileprivate var files: [AtomicFile.StagedFile] = []

        /// Removes the temporary files: the publish did not happen.
        func discard() {
            for file in files { file.discard() }
        }
    }

    /// Writes the blobs of `sources` that are not kept yet to temporary files: done before the
    /// files change, so a full disk refuses a publish before anything is written. They are
    /// flushed and named only by ``append(blobs:paths:message:by:at:)``, after the files, so
    /// a publish's own files are not kept waiting for its history.
    mutating func keepBlobs(of sources: SpecSourceSet) throws(FileSystemError) -> StagedBlobs {
        // Opened first: opening removes the temporary files and unnamed blobs a crash left,
        // which these are until the manifest names them.
        _ = try opened()
        var staged = StagedBlobs(hashes: Self.hashes(of: sources))
        var seen: Set<String> = []
        do {
            for (path, hash) in staged.hashes where seen.insert(hash).inserted {
                let blob = blobsFolder.appending(path: hash)
                guard !FileManager.default.fileExists(atPath: blob.path), let data = sources.files[path]?.data
                else { continue }
                staged.files.append(try AtomicFile.stage(data, for: blob, mode: 0o600))
            }
        } catch {
            staged.discard()
            throw error
        }
        return staged
    }

    /// Records the staged publish as the next revision: puts its blobs in place (flushed before
    /// the manifest that names them), writes the manifest, then removes the manifests beyond
    /// the limit and the blobs no manifest names.
    mutating func append(
        blobs: StagedBlobs, paths: [String], message: String, by author: String, at time: Date = Date()
    ) throws(FileSystemError) -> Int64 {
        for (index, blob) in blobs.files.enumerated() {
            do {
                try blob.put()
            } catch {
                for rest in blobs.files[(index + 1)...] { rest.discard() }
                throw error
            }
        }
        if !blobs.files.isEmpty { try AtomicFile.syncFolder(blobsFolder.path) }
        return try append(files: blobs.hashes, paths: paths, message: message, by: author, at: time)
    }

    /// Records what a write of a record did (a rollout's start, a change request's approval) as
    /// the next revision, as etcd records it beside the publishes: no paths, and the files of the
    /// newest revision, which it did not change.
    mutating func appendEvent(_ message: String, by author: String) throws(FileSystemError) -> Int64 {
        let all = try opened()
        let files = all.keys.max().flatMap { all[$0]?.files } ?? [:]
        return try append(files: files, paths: [], message: message, by: author, at: Date())
    }

    private mutating func append(
        files: [String: String], paths: [String], message: String, by author: String, at time: Date
    ) throws(FileSystemError) -> Int64 {
        var all = try opened()
        let revision = (all.keys.max() ?? 0) + 1
        let manifest = Manifest(
            revision: revision, time: ISO8601DateFormatter().string(from: time), message: message, by: author,
            paths: paths, files: files)
        try AtomicFile.write(Self.encoded(manifest), to: manifestFile(revision), mode: 0o600)
        all[revision] = manifest
        let excess = all.keys.sorted().dropLast(limit)
        for old in excess {
            try AtomicFile.remove(manifestFile(old))
            all[old] = nil
        }
        manifests = all
        if !excess.isEmpty { try removeUnnamedBlobs() }
        return revision
    }

    /// The manifests, read once; opening removes the temporary files and blobs a crash left.
    private mutating func opened() throws(FileSystemError) -> [Int64: Manifest] {
        if let manifests { return manifests }
        try makeFolders()
        for leftover in AtomicFile.leftovers(in: folder.path) { unlink(leftover) }
        var all: [Int64: Manifest] = [:]
        for name in try Self.names(in: revisionsFolder) {
            guard name.hasSuffix(".json"), let revision = Int64(name.dropLast(5)) else { continue }
            let data = try LocalFile.contents(of: manifestFile(revision).path)
            all[revision] = Self.decoded(data, revision: revision)
        }
        manifests = all
        try removeUnnamedBlobs()
        return all
    }

    private func removeUnnamedBlobs() throws(FileSystemError) {
        let named = Set((manifests ?? [:]).values.flatMap(\.files.values))
        for name in try Self.names(in: blobsFolder) where !named.contains(name) {
            try AtomicFile.remove(blobsFolder.appending(path: name))
        }
    }

    private func makeFolders() throws(FileSystemError) {
        // The state folder itself may not exist yet: a daemon's first publish makes it, private
        // to its user, as the records' files do.
        let state = folder.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(
                at: state, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw FileSystemError(operation: "create folder", path: state.path, error: error)
        }
        for url in [folder, revisionsFolder, blobsFolder] where !FileManager.default.fileExists(atPath: url.path) {
            try AtomicFile.makeFolder(url.path)
        }
    }

    /// Zero-padded, so that a listing sorts by revision.
    private func manifestFile(_ revision: Int64) -> URL {
        let digits = String(revision)
        return revisionsFolder.appending(
            path: String(repeating: "0", count: max(0, 20 - digits.count)) + digits + ".json")
    }

    private static func names(in folder: URL) throws(FileSystemError) -> [String] {
        do {
            return try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasPrefix(".") }
        } catch {
            throw FileSystemError(operation: "list", path: folder.path, error: error)
        }
    }

    private static func hashes(of sources: SpecSourceSet) -> [String: String] {
        sources.files.mapValues { hash($0.data) }
    }

    private static func hash(_ data: Data) -> String {
        SHA256.digest(data).map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }

    private static func encoded(_ manifest: Manifest) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            return try encoder.encode(manifest)
        } catch {
            // Strings, whole numbers and a dictionary of strings: encoding them cannot fail.
            return Data("{}".utf8)
        }
    }

    /// A manifest that does not decode (edited by hand, say) is listed as such, with no files.
    private static func decoded(_ data: Data, revision: Int64) -> Manifest {
        do {
            return try JSONDecoder().decode(Manifest.self, from: data)
        } catch {
            return Manifest(
                revision: revision, time: "", message: "(unreadable manifest: \(error))",
                by: HistoryEntry.unknownAuthor, paths: [],
                files: [:])
        }
    }

    private func storeError<T>(_ body: () throws(FileSystemError) -> T) throws(StoreError) -> T {
        do {
            return try body()
        } catch {
            throw .fileSystem(error.description)
        }
    }
}
