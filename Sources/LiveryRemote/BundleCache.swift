import Foundation
import Livery

/// The last good bundle of a ``RemoteSpecSource``, kept in a file so that a program starts with
/// it before (or without) the network.
///
/// The file is a short text header, a blank line and the body exactly as the server sent it:
///
/// ```
/// livery-bundle-cache 1
/// format: json
/// etag: "9f3c0a1b2c3d4e5f"
/// bytes: 1234
/// digest: 0123456789abcdef0123456789abcdef
///
/// {"specs": …}
/// ```
///
/// `bytes` and `digest` (a ``BodyDigest``) catch a truncated or corrupt file; such a file is an
/// error and is never applied. Writes replace the file atomically (temporary file, fsync,
/// rename, fsync of the folder), so a crash leaves the old file or the new one.
struct BundleCache {
    /// What the file holds.
    struct Entry: Equatable {
        var body: Data
        var etag: String?
        var lastModified: String?
        var format: SpecFormat
    }

    /// The file's name in the folder the app chose.
    static let fileName = "livery-bundle.cache"
    static let firstLine = "livery-bundle-cache 1"
    /// The longest header read: a few short lines.
    static let maxHeaderBytes = 4096

    let file: URL
    /// The largest body accepted, as for a response.
    let maxBytes: Int

    init(folder: URL, maxBytes: Int) {
        file = folder.appending(component: Self.fileName)
        self.maxBytes = maxBytes
    }

    /// The cached bundle, or `nil` when there is no file yet.
    func load() throws(BundleCacheError) -> Entry? {
        let data: Data
        do {
            guard FileManager.default.fileExists(atPath: file.path) else { return nil }
            let size = try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int ?? 0
            guard size <= maxBytes + Self.maxHeaderBytes else {
                throw BundleCacheError(
                    .corrupt, path: file.path, "the file has \(size) bytes, more than a bundle of \(maxBytes) can take")
            }
            data = try LocalFile.contents(of: file.path)
        } catch let error as BundleCacheError {
            throw error
        } catch {
            let reason = FileSystemError(operation: "read", path: file.path, error: error).reason
            throw BundleCacheError(.unreadable, path: file.path, "cannot read the file: \(reason)")
        }
        return try decode(data)
    }

    /// Replaces the file with `entry`, creating the folder if needed.
    func store(_ entry: Entry) throws(BundleCacheError) {
        let folder = file.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            let reason = FileSystemError(operation: "create", path: folder.path, error: error).reason
            throw BundleCacheError(.unwritable, path: file.path, "cannot create the folder: \(reason)")
        }
        do {
            // The bundle may hold private settings: readable by this user only, like a token.
            try AtomicFile.write(Self.encode(entry), to: file, mode: 0o600)
        } catch {
            throw BundleCacheError(.unwritable, path: file.path, error.description)
        }
    }

    // MARK: The file format

    static func encode(_ entry: Entry) -> Data {
        var header = "\(firstLine)\nformat: \(entry.format == .yaml ? "yaml" : "json")\n"
        // Header values never hold line breaks (HTTP forbids them); the check keeps the file readable anyway.
        if let etag = entry.etag, !etag.contains(where: \.isNewline) { header += "etag: \(etag)\n" }
        if let lastModified = entry.lastModified, !lastModified.contains(where: \.isNewline) {
            header += "last-modified: \(lastModified)\n"
        }
        header += "bytes: \(entry.body.count)\ndigest: \(BodyDigest(entry.body))\n\n"
        return Data(header.utf8) + entry.body
    }

    func decode(_ data: Data) throws(BundleCacheError) -> Entry {
        let bytes = [UInt8](data.prefix(Self.maxHeaderBytes))
        guard let end = bytes.indices.first(where: { $0 > 0 && bytes[$0] == 0x0A && bytes[$0 - 1] == 0x0A }) else {
            let code: BundleCacheError.Code = data.count < Self.maxHeaderBytes ? .truncated : .corrupt
            throw BundleCacheError(code, path: file.path, line: 1, "the header does not end with a blank line")
        }
        let lines = String(decoding: bytes[..<(end - 1)], as: UTF8.self).split(
            separator: "\n", omittingEmptySubsequences: false)
        guard lines.first == Substring(Self.firstLine) else {
            throw BundleCacheError(.corrupt, path: file.path, line: 1, "expected '\(Self.firstLine)'")
        }
        var fields: [String: String] = [:]
        for (offset, line) in lines.enumerated().dropFirst() {
            let parts = line.split(separator: ": ", maxSplits: 1)
            guard parts.count == 2, ["format", "etag", "last-modified", "bytes", "digest"].contains(parts[0]) else {
                throw BundleCacheError(
                    .corrupt, path: file.path, line: offset + 1,
                    "expected 'format', 'etag', "
                        + "'last-modified', 'bytes' or 'digest', a colon and a value")
            }
            fields[String(parts[0])] = String(parts[1])
        }
        let blankLine = lines.count + 1
        guard let format = fields["format"].flatMap({ $0 == "json" ? SpecFormat.json : $0 == "yaml" ? .yaml : nil }),
            let count = fields["bytes"].flatMap({ Int($0) }), (0...maxBytes).contains(count),
            let digest = fields["digest"]
        else {
            throw BundleCacheError(
                .corrupt, path: file.path, line: blankLine,
                "the header needs 'format' (json or yaml), 'bytes' (0 to \(maxBytes)) and 'digest'")
        }
        let body = data.dropFirst(end + 1)
        guard body.count >= count else {
            throw BundleCacheError(
                .truncated, path: file.path, "the body has \(body.count) of the \(count) bytes the header announces")
        }
        guard body.count == count, BodyDigest(body).description == digest else {
            throw BundleCacheError(
                .corrupt, path: file.path, "the body does not match the length and digest the header gives")
        }
        return Entry(body: Data(body), etag: fields["etag"], lastModified: fields["last-modified"], format: format)
    }
}
