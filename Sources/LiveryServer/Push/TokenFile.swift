import CDispatch
package import Foundation
import Livery

/// Where the push token lives on disk, and how it is read and written.
///
/// `livery serve` writes a fresh token to ``defaultLocation(environment:)`` unless it is given
/// `--token-file`, and to that file when it does not exist yet; `livery push` reads the same
/// place by default.
package enum TokenFile {
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
        do throws(FileSystemError) {
            data = try LocalFile.contents(of: url.path)
        } catch {
            throw TokenError("cannot read the token file '\(url.path)': \(error.reason)")
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

    /// Writes `token` to `url` readable by the owner only (mode 0600), replacing the file
    /// atomically, so a reader never sees half a token.
    ///
    /// The folder is created with mode 0700 when missing. An existing one must belong to this
    /// user and let nobody else write in it (who can, can swap the token for one they know);
    /// with `privateFolder`, as for ``defaultLocation(environment:)``'s folders, which Livery
    /// owns whole, nobody else may enter it either (mode 0700).
    public static func write(_ token: BearerToken, to url: URL, privateFolder: Bool = true) throws(TokenError) {
        try prepareFolder(of: url, privateFolder: privateFolder)
        do throws(FileSystemError) {
            try AtomicFile.write(Data((token.text + "\n").utf8), to: url, mode: 0o600)
        } catch {
            throw TokenError("cannot write the token file '\(url.path)': \(error.reason)")
        }
    }

    /// The token in `url`, or, when there is no such file, a fresh random one written there as
    /// ``write(_:to:privateFolder:)`` does (`created` is then true).
    ///
    /// Two daemons started at once on the same missing file end with the same token: the new
    /// file is linked into place only if none exists, and the one that finds a file there reads it.
    public static func readOrCreate(_ url: URL) throws(TokenError) -> (token: BearerToken, created: Bool) {
        if access(url.path, F_OK) == 0 { return (try read(url), false) }
        try prepareFolder(of: url, privateFolder: false)
        let token = BearerToken.random()
        do throws(FileSystemError) {
            try AtomicFile.create(Data((token.text + "\n").utf8), at: url, mode: 0o600)
        } catch  where error.errno == EEXIST {
            return (try read(url), false)
        } catch {
            throw TokenError("cannot write the token file '\(url.path)': \(error.reason)")
        }
        return (token, true)
    }

    /// Creates the token's folder (mode 0700) or checks the one there; see
    /// ``write(_:to:privateFolder:)``.
    private static func prepareFolder(of url: URL, privateFolder: Bool) throws(TokenError) {
        let folder = url.deletingLastPathComponent().path
        var info = stat()
        if stat(folder, &info) != 0, errno == ENOENT {
            do {
                try FileManager.default.createDirectory(
                    atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                let failure = FileSystemError(operation: "create", path: folder, error: error)
                throw TokenError("cannot create the token folder '\(folder)': \(failure.reason)")
            }
            guard stat(folder, &info) == 0 else {
                throw TokenError("cannot create the token folder '\(folder)': \(FileSystemError.reason(errno: errno))")
            }
        }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            throw TokenError("the token folder '\(folder)' is not a folder")
        }
        guard info.st_uid == geteuid() else {
            throw TokenError(
                "the token folder '\(folder)' belongs to user \(info.st_uid), not to you (user \(geteuid())): "
                    + "whoever owns it can replace the token; use a folder of your own")
        }
        let mode = info.st_mode & 0o777
        let others: mode_t = privateFolder ? 0o077 : 0o022
        guard mode & others == 0 else {
            let octal = String(mode, radix: 8)
            throw TokenError(
                privateFolder
                    ? "the token folder '\(folder)' has mode \(octal): other users can enter it; it must be 0700 (chmod 700 '\(folder)')"
                    : "the token folder '\(folder)' has mode \(octal): other users can write in it and replace the token; "
                        + "use a folder only you can write to (chmod go-w '\(folder)')")
        }
    }
}
