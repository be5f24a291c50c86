import Foundation
import Livery

/// Where the push token lives on disk, and how it is read and written.
///
/// `livery serve` writes a fresh token to ``defaultLocation(environment:)`` unless it is given
/// `--token-file`; `livery push` reads the same place by default.
public enum TokenFile {
    /// `$XDG_RUNTIME_DIR/livery/token` (a per-user, memory-backed folder that only the user can
    /// enter), else `~/.local/state/livery/token`, else `livery-<uid>/token` in the temporary
    /// folder.
    public static func defaultLocation(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") {
            return URL(filePath: runtime, directoryHint: .isDirectory).appending(path: "livery/token")
        }
        if let home = environment["HOME"], home.hasPrefix("/") {
            return URL(filePath: home, directoryHint: .isDirectory).appending(path: ".local/state/livery/token")
        }
        return FileManager.default.temporaryDirectory.appending(path: "livery-\(getuid())/token")
    }

    /// Reads a token file (surrounding whitespace is ignored).
    public static func read(_ url: URL) throws(TokenError) -> BearerToken {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw TokenError("cannot read the token file '\(url.path)': \(error.localizedDescription)")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw TokenError("the token file '\(url.path)' is not UTF-8 text")
        }
        do {
            return try BearerToken(text)
        } catch {
            throw TokenError("the token file '\(url.path)' is empty")
        }
    }

    /// Writes `token` to `url` readable by the owner only (mode 0600), creating its folder with
    /// mode 0700 if needed. The file is replaced atomically, so a reader never sees half a token.
    public static func write(_ token: BearerToken, to url: URL) throws(TokenError) {
        let folder = url.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(
                at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw TokenError("cannot create the token folder '\(folder.path)': \(error.localizedDescription)")
        }
        do {
            try AtomicFile.write(Data((token.text + "\n").utf8), to: url, mode: 0o600)
        } catch {
            throw TokenError("cannot write the token file '\(url.path)': \(error)")
        }
    }
}
