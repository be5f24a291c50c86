import Foundation
import LiveryServer
import Logging

/// `LiveryBench --serve SECONDS`: figure 3's daemon (the real `LiveryDaemon`, in this process)
/// serving figure 3's bundle on a free loopback port for `SECONDS`, with no client of its own:
/// for profiling the serving path under callgrind (`Benchmarks/profile-serving.sh`), which can
/// run neither `livery serve` itself (valgrind 3.19 dies in its signal-handling thread) nor
/// nginx and wrk from inside this process. It prints `port N` once it listens.
enum ProfiledDaemon {
    static func serve(seconds: Int) throws {
        let folder = try TemporaryBenchFolder()
        let specs = folder.url.appendingPathComponent("Specs")
        try Data(ServeFigure.generatedSpec().utf8).write(to: specs.appendingPathComponent("ui.yaml"))
        let daemon = LiveryDaemon(
            configuration: DaemonConfiguration(directory: specs, port: 0),
            token: BearerToken.random(), logger: Logger(label: "bench") { _ in SwiftLogNoOpLogHandler() })
        let serving = Task { try await daemon.run() }
        defer { serving.cancel() }
        let port = try Blocking.run { try await daemon.listeningPort() }
        FileHandle.standardOutput.write(Data("port \(port)\n".utf8))
        withExtendedLifetime(folder) { Thread.sleep(forTimeInterval: Double(seconds)) }
    }
}
