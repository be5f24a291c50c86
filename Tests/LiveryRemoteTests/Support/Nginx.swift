import Foundation
import LiveryTestSupport
import Synchronization
import Testing

/// A real nginx serving a temporary folder on a loopback port, run as a child process in the
/// foreground (`daemon off`) with its own prefix, config, pid and logs; stopped with SIGQUIT.
///
/// Locations: `/` serves `www/` with nginx's validators (ETag = mtime-size, Last-Modified);
/// `/plain/` serves `www/plain/` with none; `/status/404.json` and `/status/500.json` answer
/// those statuses with a *valid* spec body, which must never be applied. `.yaml` files are
/// `application/yaml`; `.yml` files fall back to `application/octet-stream`.
final class Nginx {
    static let binary = "/usr/sbin/nginx"

    let root: URL
    let www: URL
    let port: Int
    private let process: ChildProcess

    /// Starts nginx and returns once it accepts connections.
    init(statusBody: String) async throws {
        try #require(
            FileManager.default.isExecutableFile(atPath: Self.binary),
            "nginx is not installed: run scripts/test, which installs it (apt-get install nginx)")
        root = FileManager.default.temporaryDirectory.appending(path: "livery-nginx-\(UUID().uuidString)")
        www = root.appending(path: "www")
        try FileManager.default.createDirectory(at: www.appending(path: "plain"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: root.appending(path: "tmp"), withIntermediateDirectories: true)
        port = try FreePort.pick()
        let config = root.appending(path: "nginx.conf")
        try Self.config(root: root.path, port: port, statusBody: statusBody)
            .write(to: config, atomically: true, encoding: .utf8)
        process = try await Nginx.launch(root: root, config: config, port: port)
    }

    var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// Starts nginx in the foreground with `config` and prefix `root`, and waits until it
    /// listens on `port`.
    static func launch(root: URL, config: URL, port: Int) async throws -> ChildProcess {
        let process = ChildProcess(
            binary,
            ["-p", root.path, "-e", root.appending(path: "error.log").path, "-c", config.path, "-g", "daemon off;"])
        try await process.start()
        try await FreePort.waitUntilListening(port: port, timeout: .seconds(10))
        return process
    }

    /// Writes `text` to `path` under `www/` as editors do: a temporary file renamed over it.
    func write(_ text: String, to path: String) throws {
        let target = www.appending(path: path)
        let temporary = target.deletingLastPathComponent().appending(path: ".\(UUID().uuidString).tmp")
        try Data(text.utf8).write(to: temporary)
        // A distinct whole second per write, so nginx's ETag (mtime-size) changes even when the
        // size does not: nginx cannot tell two same-size writes within one second apart.
        let stamp = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down) + Double(Self.nextSecond()))
        try FileManager.default.setAttributes([.modificationDate: stamp], ofItemAtPath: temporary.path)
        guard rename(temporary.path, target.path) == 0 else { throw CocoaError(.fileWriteUnknown) }
    }

    /// Deletes `path` under `www/`.
    func remove(_ path: String) throws {
        try FileManager.default.removeItem(at: www.appending(path: path))
    }

    /// The statuses of the requests for `path`, in order, from the access log.
    func statuses(of path: String) throws -> [Int] {
        let log = try String(contentsOf: root.appending(path: "access.log"), encoding: .utf8)
        return log.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ")
            guard fields.count == 2, fields[0] == path else { return nil }
            return Int(fields[1])
        }
    }

    /// Stops nginx (graceful quit); its folder is removed once it has exited. Throws if it had
    /// exited already, which it never does on its own.
    func stop() throws {
        try Self.stop(process, with: SIGQUIT, removing: root)
    }

    /// Sends `signal` to the nginx `process`, then removes `root` once it has exited (nginx
    /// writes there until it has); throws if it had exited already.
    static func stop(_ process: ChildProcess, with signal: Int32, removing root: URL) throws {
        guard process.isRunning else {
            let log = (try? String(contentsOf: root.appending(path: "error.log"), encoding: .utf8)) ?? ""
            throw FreePort.Failure(description: "nginx exited before it was stopped: \(log)")
        }
        process.send(signal)
        Task {
            await process.waitUntilExit()
            try? FileManager.default.removeItem(at: root)  // best effort: a leftover temporary folder harms nothing
        }
    }

    private static let seconds = Mutex(0)
    private static func nextSecond() -> Int {
        seconds.withLock {
            $0 += 1
            return $0
        }
    }

    private static func config(root: String, port: Int, statusBody: String) -> String {
        let body = statusBody.replacingOccurrences(of: "'", with: "\\'")
        return """
            worker_processes 1;
            pid \(root)/nginx.pid;
            error_log \(root)/error.log;
            events { worker_connections 64; }
            http {
                log_format status '$uri $status';
                access_log \(root)/access.log status;
                client_body_temp_path \(root)/tmp/body;
                proxy_temp_path \(root)/tmp/proxy;
                fastcgi_temp_path \(root)/tmp/fastcgi;
                uwsgi_temp_path \(root)/tmp/uwsgi;
                scgi_temp_path \(root)/tmp/scgi;
                types { application/json json; application/yaml yaml; }
                default_type application/octet-stream;
                server {
                    listen 127.0.0.1:\(port);
                    root \(root)/www;
                    location /plain/ {
                        etag off;
                        add_header Last-Modified "";
                        if_modified_since off;
                    }
                    location = /status/404.json { default_type application/json; return 404 '\(body)'; }
                    location = /status/500.json { default_type application/json; return 500 '\(body)'; }
                }
            }
            """
    }
}
