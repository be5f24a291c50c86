import Configuration
import Foundation
import LiveryConfiguration
import LiveryConfigurationFolder
import Logging
import ServiceLifecycle
import UnixSignals

// The Swift sample of LiveryConfiguration's landing page, word for word between its markers
// (Tests/Docs/check_docs.py holds the page to it): compiled with the tests, so a sample that no
// longer builds fails the build. The settings guide's sample is run by SettingsSampleTests.

func settingsLandingPageSample(server: some Service, logger: Logger) async throws {
    // sample: Sources/LiveryConfiguration/LiveryConfiguration.docc/LiveryConfiguration.md
    let settings = try await SpecConfigProvider(directory: URL(filePath: "Specs"), logger: logger)
    let config = ConfigReader(provider: settings)
    let timeout = config.int(forKey: "http.timeout", default: 30)
    // As a service it follows the folder (or the daemon) and tells the watchers of each change.
    let group = ServiceGroup(services: [settings, server], gracefulShutdownSignals: [.sigterm], logger: logger)
    // sample end
    _ = (timeout, group)
}

/// The sample of LiveryConfigurationFolder's landing page, word for word between its markers.
func folderLandingPageSample(logger: Logger) async throws -> SpecConfigProvider {
    // sample: Sources/LiveryConfigurationFolder/LiveryConfigurationFolder.docc/LiveryConfigurationFolder.md
    let settings = try await SpecConfigProvider(directory: URL(filePath: "Specs"), logger: logger)
    // sample end
    return settings
}
