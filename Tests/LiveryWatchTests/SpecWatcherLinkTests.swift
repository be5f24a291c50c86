import Foundation
import Livery
import Synchronization
import Testing

@testable import LiveryWatch

extension WatchIOTests {
    /// A spec watcher does not enter links to folders (a specs folder does not load through
    /// them), but notices when one comes or goes.
    @Suite struct SpecWatcherLinkTests {
        @Test func aLinkedFolderIsNeitherWatchedNorLoadedAndALinkThatComesReloads() async throws {
            let folder = try TemporaryFolder()
            let elsewhere = try TemporaryFolder()
            try elsewhere.makeFolder("themes")
            try elsewhere.write("themes/dark.yaml", "specs: { dark: [] }\n")
            try folder.write("card.yaml", "specs: { card: [] }\n")
            try folder.link("themes", to: elsewhere.at("themes"))
            let watcher = SpecWatcher(directory: folder.url, logger: testLogger)
            let specs = Mutex<[[String]]>([])
            let consumer = Task {
                for await update in watcher {
                    if case .loaded(let spec, _) = update { specs.withLock { $0.append(spec.identifiers) } }
                }
            }
            defer { consumer.cancel() }
            try await eventually("the first spec") { specs.withLock { $0.count } == 1 }
            #expect(specs.withLock { $0 } == [["card"]])  // nothing loaded through the link
            #expect(watcher.statistics.watchedFolders == 1)

            // No spec file changes, but where the links to folders are does (an include through
            // one is refused): the folder reloads.
            try folder.link("more", to: elsewhere.at("themes"))
            try await eventually("a reload after the link") { specs.withLock { $0.count } == 2 }
            #expect(watcher.statistics.watchedFolders == 1)
            await watcher.stop()
        }
    }
}
