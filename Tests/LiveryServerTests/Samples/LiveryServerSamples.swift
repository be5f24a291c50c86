import Foundation
import LiveryServer
import Logging

// The Swift sample of LiveryServer's landing page, word for word between its markers
// (Tests/Docs/check_docs.py holds the page to it): compiled with the tests, so a sample that no
// longer builds fails the build.

func embeddedDaemonSample(logger: Logger) async throws {
    // sample: Sources/LiveryServer/LiveryServer.docc/LiveryServer.md
    let daemon = LiveryDaemon(
        configuration: DaemonConfiguration(directory: URL(filePath: "Specs"), port: 0),
        token: BearerToken.random(),
        logger: logger)
    try await daemon.runService()
    // sample end
}
