import ArgumentParser
import Foundation
import Livery
import LiveryServer

/// The options of the commands that run the daemon (`serve`, `demo`): where it listens and
/// where its push token comes from.
struct DaemonOptions: ParsableArguments {
    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on (0: any free port).")
    var port = 7878

    @Option(
        help:
            "A file holding the push token, written with a random one if missing. Without it a random token is written to \(TokenFile.defaultLocation().path)."
    )
    var tokenFile: String?

    @Flag(
        inversion: .prefixedNo,
        help:
            "Serve Livery Studio, the web page for designers, at /studio/ (default: on for a loopback --host or with --tls-cert; off on other addresses without TLS)."
    )
    var studio: Bool?
    @Option(help: "A PEM certificate chain to speak HTTPS with (with --tls-key); re-read when it changes on disk.")
    var tlsCert: String?

    @Option(help: "The PEM private key of --tls-cert; re-read when it changes on disk.")
    var tlsKey: String?

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be between 0 and 65535") }
        guard (tlsCert == nil) == (tlsKey == nil) else {
            throw ValidationError("--tls-cert and --tls-key go together: give both, or neither for plain HTTP")
        }
        for path in [tlsCert, tlsKey].compactMap(\.self) {
            do throws(FileSystemError) {
                try LocalFile.checkReadable(path)
            } catch {
                throw ValidationError("\(path): \(error.reason)")
            }
        }
    }

    /// The TLS files, when both were given.
    var tls: TLSFiles? {
        guard let tlsCert, let tlsKey else { return nil }
        return TLSFiles(certificatePath: tlsCert, keyPath: tlsKey)
    }

    /// `http` or `https`, as the daemon speaks.
    var scheme: String { tls == nil ? "http" : "https" }

    /// The token from `--token-file` (a fresh random one written there when the file does not
    /// exist), or without it a fresh one written where `livery push` looks for it. Only the
    /// file's location is printed, never the token.
    func loadToken(say: (String) -> Void) throws -> BearerToken {
        if let tokenFile {
            let (token, created) = try TokenFile.readOrCreate(URL(filePath: tokenFile))
            say("livery: push token \(created ? "written to \(tokenFile) (mode 0600)" : "read from \(tokenFile)")")
            return token
        }
        let token = BearerToken.random()
        let location = TokenFile.defaultLocation()
        try TokenFile.write(token, to: location)
        say("livery: push token written to \(location.path) (mode 0600)")
        return token
    }

    /// Warns on standard error, whatever the log level, when the daemon listens beyond this
    /// machine: without TLS the push token and the specs travel in clear text.
    func warnIfExposed(_ configuration: DaemonConfiguration) {
        guard !configuration.isLoopback, configuration.tls == nil else { return }
        let line =
            "livery: WARNING: listening on \(host), which is not a loopback address, without TLS: the push token "
            + "and the specs travel in clear text. Give --tls-cert and --tls-key, or put a TLS-terminating proxy in front "
            + "(README, \"Security and TLS\"), or listen on 127.0.0.1.\n"
        FileHandle.standardError.write(Data(line.utf8))
    }
}
