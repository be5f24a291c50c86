import Foundation
import LiveryServer
import LiveryTestSupport
import LiveryTesting
import Logging
import Testing

/// A program that uses LiveryConfiguration only to follow a daemon (`ConfigurationFollower`)
/// reads its setting from a real daemon and links no libinotifytools (GPL-2.0); the folder
/// source, in LiveryConfigurationFolder, brings it in as LiveryWatch does.
@Suite(.timeLimit(.minutes(1))) struct LinkedLibrariesTests {
    /// The build products folder, where the test bundle and the executables sit.
    static let products = URL(filePath: CommandLine.arguments[0]).deletingLastPathComponent()

    @Test func aProgramFollowingOnlyADaemonLinksNoInotify() async throws {
        let follower = Self.products.appending(path: "ConfigurationFollower").path
        let followerNeeds = try await Self.neededLibraries(of: follower)
        #expect(!followerNeeds.contains { $0.hasPrefix("libinotifytools") }, "\(followerNeeds)")
        // The check sees the library where it is linked: `livery` follows folders.
        let liveryNeeds = try await Self.neededLibraries(of: Self.products.appending(path: "livery").path)
        #expect(liveryNeeds.contains { $0.hasPrefix("libinotifytools") }, "\(liveryNeeds)")

        let folder = try TemporarySpecFolder(prefix: "livery-linked")
        try folder.write("values.yaml", "variables: { greeting: hello }\nspecs: {}\n")
        let logger = Logger(label: "livery.configuration.test") { _ in SwiftLogNoOpLogHandler() }
        let daemon = LiveryDaemon(
            configuration: DaemonConfiguration(directory: folder.url, port: 0),
            token: try BearerToken("test-token-0123456789abcdef"), logger: logger)
        let serving = GracefulServer.run(daemon, logger: logger)
        let url = "http://127.0.0.1:\(try await daemon.listeningPort())"
        let run = try await ChildProcess.run(follower, [url, "greeting"])
        #expect(run.output == "hello\n", "\(run.command)")
        serving.cancel()
        _ = await serving.result
    }

    /// The `NEEDED` entries of an executable's dynamic section, as `readelf -d` prints them.
    static func neededLibraries(of executable: String) async throws -> [String] {
        #expect(FileManager.default.isExecutableFile(atPath: executable), "\(executable) not built")
        let readelf = try await ChildProcess.run("readelf", ["-d", executable])
        let needed = readelf.output.split(separator: "\n").filter { $0.contains("(NEEDED)") }
        #expect(!needed.isEmpty, "readelf -d \(executable): \(readelf.output)")
        return needed.compactMap { line in
            line.firstRange(of: "[").map { String(line[$0.upperBound...].prefix { $0 != "]" }) }
        }
    }
}
