import Foundation
import Livery
import LiveryWatch
import Logging

// The Swift samples of the README and of LiveryWatch's catalogue that follow a folder, each word
// for word between its markers (Tests/Docs/check_docs.py holds the documents to them): compiled
// with the tests, so a sample that no longer builds fails the build.

@MainActor
func followDirectorySample(provider: TraitsProvider) {
    // sample: README.md
    let following = Task { await provider.follow(directory: URL(filePath: "Specs")) }
    // … edit Specs/*.yaml in any editor: the provider restyles at once …
    following.cancel()
    // sample end
}

@MainActor
func specWatcherSample(provider: TraitsProvider, logger: Logger) async throws {
    // sample: Sources/LiveryWatch/LiveryWatch.docc/LiveryWatch.md
    let watcher = SpecWatcher(directory: URL(filePath: "Specs"), logger: logger)
    for await update in watcher {
        switch update {
        case .loaded(let spec, _): try provider.load(spec)
        case .failed(let error): logger.error("\(error)")  // keep applying the last good spec
        }
    }
    // sample end
}
