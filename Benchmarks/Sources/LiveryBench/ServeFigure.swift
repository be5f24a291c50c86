import Dispatch
import Foundation
import Livery
import LiveryServer
import LiveryTestSupport
import Logging
import Synchronization

/// Figure 3: wrk against `livery serve` (the real `LiveryDaemon`, in this process) and against
/// nginx (`worker_processes 2`, ETags on, `gzip_static on`) serving the same ~50 KB bundle file
/// and the same gzip bytes of it, in the same run, alternating: conditional GETs answered 304,
/// plain GETs answered 200, then both again from clients that send `Accept-Encoding: gzip`.
enum ServeFigure {
    static let figure = Figure(number: "3", title: "Serving") { config in try run(config) }

    static let acceptGzip = "Accept-Encoding: gzip"

    static func run(_ config: BenchConfig) throws -> [Row] {
        let runs = Wrk.Runs(config)
        let folder = try TemporaryBenchFolder()
        try Data(generatedSpec().utf8).write(to: folder.url.appendingPathComponent("Specs/ui.yaml"))
        let bundle = try Spec(directory: folder.url.appendingPathComponent("Specs")).bundleJSON
        let www = folder.url.appendingPathComponent("www")
        try Data(bundle.utf8).write(to: www.appendingPathComponent("bundle.json"))

        let daemon = LiveryDaemon(
            configuration: DaemonConfiguration(directory: folder.url.appendingPathComponent("Specs"), port: 0),
            token: BearerToken.random(), logger: Logger(label: "bench") { _ in SwiftLogNoOpLogHandler() })
        let serving = Task { try await daemon.run() }
        defer { serving.cancel() }
        let liveryPort = try Blocking.run { try await daemon.listeningPort() }
        let livery = "http://127.0.0.1:\(liveryPort)/v1/spec"
        // nginx's pre-compressed file is the daemon's own gzip representation, byte for byte.
        let liveryGzip = try Curl.head(
            livery, header: acceptGzip, saveBodyTo: www.appendingPathComponent("bundle.json.gz"))
        let nginx = try NginxServer(root: www, work: folder.url)
        defer { nginx.stop() }

        let plain = "http://127.0.0.1:\(nginx.port)/bundle.json"
        let liveryHead = try Curl.head(livery)
        let nginxHead = try Curl.head(plain)
        let nginxGzip = try Curl.head(plain, header: acceptGzip)
        guard liveryHead.bytes == nginxHead.bytes, liveryHead.bytes == bundle.utf8.count else {
            throw BenchError("the servers disagree on the bundle: \(liveryHead.bytes) and \(nginxHead.bytes) bytes")
        }
        guard liveryGzip.gzip, nginxGzip.gzip, liveryGzip.bytes == nginxGzip.bytes else {
            throw BenchError("the servers disagree on the gzip bundle: \(liveryGzip) and \(nginxGzip)")
        }
        let size = "\(Format.count(bundle.utf8.count)) B bundle"
        var rows = [
            Row(
                figure: "3", metric: "bytes on the wire: \(size) with gzip (body of a 200)", unit: "B",
                value: Double(liveryGzip.bytes), p99: nil, baseline: "the same answer without gzip",
                baselineValue: Double(liveryHead.bytes), ratio: Double(liveryGzip.bytes) / Double(liveryHead.bytes),
                cpuRatio: nil, target: "—", verdict: .info,
                notes: "compressed once per version (zlib level 9); nginx gzip_static sends the same bytes")
        ]
        for (name, liveryHeaders, nginxHeaders) in [
            ("304 (If-None-Match)", ["If-None-Match: \(liveryHead.etag)"], ["If-None-Match: \(nginxHead.etag)"]),
            ("200", [], []),
            ("gzip 200 (Accept-Encoding: gzip)", [acceptGzip], [acceptGzip]),
            (
                "gzip 304 (If-None-Match, Accept-Encoding: gzip)",
                ["If-None-Match: \(liveryGzip.etag)", acceptGzip], ["If-None-Match: \(nginxGzip.etag)", acceptGzip]
            ),
        ] {
            rows.append(
                try Wrk.row(
                    figure: "3", metric: "wrk GET \(size), \(name), requests/s", livery: (livery, liveryHeaders),
                    nginx: (plain, nginxHeaders), baseline: "nginx, same file, ETags on, gzip_static", runs: runs)
            )
        }
        return rows
    }

    /// About 50 KB of bundle: 300 identifiers of three traits each, with variables and a theme.
    static func generatedSpec() -> String {
        var lines = [
            "variables:", "  colors: { accent: \"#0A84FF\", text: \"#1C1C1E\" }", "themes:",
            "  dark: { colors: { accent: \"#64D2FF\", text: \"#F2F2F7\" } }", "specs:",
        ]
        for index in 0..<300 {
            lines.append("  component\(index).view:")
            lines.append("    - { type: BackgroundColor, color: \"@colors.accent\" }")
            lines.append("    - { type: CornerRadius, radius: \(index % 24) }")
            lines.append("    - { type: Font, name: Inter, size: \(12 + index % 9), color: \"@colors.text\" }")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

/// A fresh folder with `Specs/` and `www/`, removed afterwards.
final class TemporaryBenchFolder {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("livery-bench-\(UUID().uuidString)")

    init() throws {
        for sub in ["Specs", "www", "logs"] {
            try FileManager.default.createDirectory(
                at: url.appendingPathComponent(sub), withIntermediateDirectories: true)
        }
    }

    deinit { try? FileManager.default.removeItem(at: url) }  // best effort: a temp folder
}

/// Runs async work from the benchmark's synchronous main thread, which is free to block.
enum Blocking {
    static func run<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
        let box = ResultBox<T>()
        let done = DispatchSemaphore(value: 0)
        Task {
            let result: Result<T, any Error>
            do { result = .success(try await body()) } catch { result = .failure(error) }
            box.result.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        guard let result = box.result.withLock({ $0 }) else { throw BenchError("no result") }
        return try result.get()
    }
}

/// The result of a task, handed to a waiting thread.
private final class ResultBox<T: Sendable>: Sendable {
    let result = Mutex<Result<T, any Error>?>(nil)
}

/// nginx as a child process on a free loopback port.
final class NginxServer {
    let port: Int
    private let process: ChildProcess

    init(root: URL, work: URL) throws {
        port = try FreePort.find()
        let config = work.appendingPathComponent("nginx.conf")
        let temp = work.appendingPathComponent("logs").path
        try Data(
            """
            worker_processes 2;
            daemon off;
            pid \(temp)/nginx.pid;
            error_log \(temp)/error.log;
            events { worker_connections 1024; }
            http {
                access_log off;
                client_body_temp_path \(temp); proxy_temp_path \(temp); fastcgi_temp_path \(temp);
                uwsgi_temp_path \(temp); scgi_temp_path \(temp);
                default_type application/json;
                server { listen 127.0.0.1:\(port); root \(root.path); location / { etag on; gzip_static on; gzip_vary on; } }
            }
            """.utf8
        ).write(to: config)
        let process = ChildProcess("/usr/sbin/nginx", ["-p", work.path, "-c", config.path])
        self.process = process
        try Blocking.run { try await process.start() }
        let deadline = ContinuousClock.now + .seconds(5)
        while (try? Curl.head("http://127.0.0.1:\(port)/bundle.json")) == nil {  // not up yet
            guard ContinuousClock.now < deadline else { throw BenchError("nginx did not start on port \(port)") }
            Thread.sleep(forTimeInterval: 0.05)
        }
    }

    func stop() {
        process.terminate()
        process.waitUntilExitBlocking()
    }
}

enum FreePort {
    /// Binds port 0 on loopback and returns the port the kernel chose.
    static func find() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw BenchError("socket: errno \(errno)") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard bound else { throw BenchError("bind: errno \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

enum Curl {
    /// A GET's `ETag`, body size on the wire and whether it came gzip-encoded, by curl (which
    /// does not decode it); the body is saved to `saveBodyTo` when given.
    static func head(
        _ url: String, header: String? = nil, saveBodyTo file: URL? = nil, arguments more: [String] = []
    ) throws -> (etag: String, bytes: Int, gzip: Bool) {
        var arguments = ["-s", "-D", "-", "-o", file?.path ?? "/dev/null", "-w", "%{size_download}"] + more
        if let header { arguments += ["-H", header] }
        let output = try Command.run("/usr/bin/curl", arguments + [url])
        let lines = output.split(whereSeparator: \.isNewline)
        func field(_ name: String) -> String? {
            lines.first { $0.lowercased().hasPrefix(name + ":") }.map {
                String($0.dropFirst(name.count + 1)).trimmingCharacters(in: .whitespaces)
            }
        }
        guard let etag = field("etag"), let size = lines.last.flatMap({ Int($0) }) else {
            throw BenchError("no ETag or size from \(url): \(output)")
        }
        return (etag, size, field("content-encoding") == "gzip")
    }
}

enum Wrk {
    /// How long each wrk run lasts, and how many alternating runs of each side a row takes.
    struct Runs {
        let seconds: Int
        let rounds: Int

        /// 5 s, 3 rounds: on two shared cores one run of either server can land in another
        /// process's burst, and a single pair's ratio then says little. The smoke run's 1 s, 1
        /// round only prove the rows still run (its numbers mean nothing), at a third of CI's time.
        init(_ config: BenchConfig) {
            seconds = config.smoke ? 1 : 5
            rounds = config.smoke ? 1 : 3
        }
    }

    /// A row of requests per second against the daemon beside nginx: `runs.rounds` runs of each,
    /// alternating, in the same run, and the medians; the target is ≥ 1.0×.
    static func row(
        figure: String, metric: String, livery: (url: String, headers: [String]),
        nginx: (url: String, headers: [String]), baseline: String, runs: Runs
    ) throws -> Row {
        let seconds = runs.seconds
        var ours: [Double] = []
        var theirs: [Double] = []
        for _ in 0..<runs.rounds {
            ours.append(try requestsPerSecond(livery.url, headers: livery.headers, seconds: seconds))
            theirs.append(try requestsPerSecond(nginx.url, headers: nginx.headers, seconds: seconds))
        }
        let value = Samples.percentile(50, of: ours)
        let baselineValue = Samples.percentile(50, of: theirs)
        let ratio = value / baselineValue
        return Row(
            figure: figure, metric: metric, unit: "req/s", value: value, p99: nil, baseline: baseline,
            baselineValue: baselineValue, ratio: ratio, cpuRatio: nil, target: "≥ 1.00×",
            verdict: ratio >= 1 ? .pass : .miss,
            notes:
                "wrk -t2 -c64 -d\(seconds)s, medians of \(runs.rounds) alternating runs, both servers and wrk on the same 2 cores"
        )
    }

    /// Requests per second of wrk's GETs of `url`, or of the requests `script` (a wrk Lua file) makes.
    static func requestsPerSecond(_ url: String, headers: [String], script: URL? = nil, seconds: Int) throws -> Double {
        var arguments = ["-t2", "-c64", "-d\(seconds)s"]
        for header in headers { arguments += ["-H", header] }
        if let script { arguments += ["-s", script.path] }
        let output = try Command.run("/usr/bin/wrk", arguments + [url])
        guard let line = output.split(separator: "\n").first(where: { $0.hasPrefix("Requests/sec:") }),
            let value = Double(line.dropFirst("Requests/sec:".count).trimmingCharacters(in: .whitespaces))
        else { throw BenchError("no Requests/sec in wrk's output: \(output)") }
        if output.contains("Non-2xx or 3xx responses") { throw BenchError("errors from \(url): \(output)") }
        // A rate with failed connections or timed-out requests measures the failures too.
        if output.contains("Socket errors:") { throw BenchError("socket errors from \(url): \(output)") }
        return value
    }
}

enum Command {
    static func run(_ path: String, _ arguments: [String]) throws -> String {
        let command = try Blocking.run { try await ChildProcess.run(path, arguments) }
        guard command.terminationReason == .exit, command.terminationStatus == 0 else {
            throw BenchError("\(path) exited \(command.terminationStatus): \(command.errors)")
        }
        return command.output
    }
}

extension ChildProcess {
    /// ``waitUntilExit()`` for the benchmarks' own thread, which is not one of the cooperative pool's.
    func waitUntilExitBlocking() {
        _ = try? Blocking.run { await self.waitUntilExit() }  // it cannot throw
    }
}
