import Foundation
import Synchronization
import Testing

@testable import LiveryWatch

extension WatchIOTests {
    /// The watch limit running out: for real (in a user namespace) and through the test hook.
    @Suite struct WatchLimitTests {
        let owner = InotifyOwner.shared

        @Test(.enabled("needs `unshare --user`") { await UserNamespace.isAvailable })
        func aRealExhaustedLimitIsReportedAndRescansCoverTheRest() async throws {
            guard UserNamespace.isChild else {
                let child = try await UserNamespace.runTest(
                    named: "aRealExhaustedLimitIsReportedAndRescansCoverTheRest")
                #expect(child.status == 0, "the child run failed:\n\(child.output)")
                // Not vacuous: a filter matching nothing would exit 0 too.
                #expect(child.output.contains("aRealExhaustedLimitIsReportedAndRescansCoverTheRest() passed"))
                return
            }
            // From here on: in the child, root of a user namespace whose limit is 4 watches.
            try UserNamespace.setWatchLimit(4)
            let folder = try TemporaryFolder()
            for index in 1...5 {
                try folder.makeFolder("s\(index)")
                try folder.write("s\(index)/f.yaml", "\(index)\n")
            }
            var expected = try TestLoader.load(folder.url)
            let recorder = UpdateRecorder(
                watching: folder, configuration: WatchConfiguration(rescanInterval: .milliseconds(30)))
            do {
                try await recorder.waitForValue(expected)
                let error = try #require(recorder.failures.first as? WatchError)
                #expect(error.code == .watchLimitReached)
                #expect(error.message.contains("fs.inotify.max_user_watches (currently "))
                #expect(error.message.contains("; 4 in this user namespace, see /proc/sys/user/max_inotify_watches)"))
                // The root and s1…s3 are watched; s4 and s5 only rescanned.
                #expect(recorder.watcher.statistics.watchedFolders == 4)
                #expect(recorder.watcher.statistics.isRescanningPeriodically)

                try folder.write("s5/f.yaml", "5: changed\n")
                expected["s5/f.yaml"] = "5: changed\n"
                try await recorder.waitForValue(expected)
                #expect(recorder.watcher.statistics.rescans >= 1)

                try UserNamespace.setWatchLimit(100)
                try await eventually("inotify to take over") { !recorder.watcher.statistics.isRescanningPeriodically }
                #expect(recorder.watcher.statistics.watchedFolders == 6)
                #expect(recorder.failures.count == 1)
            } catch {
                await recorder.stop()
                throw error
            }
            await recorder.stop()
        }

        @Test func anExhaustedLimitFallsBackToRescans() async throws {
            let folder = try TemporaryFolder()
            try folder.write("a.yaml", "a\n")
            owner.faults.withLock { $0.watchLimitPrefixes.append(folder.path) }
            defer { owner.faults.withLock { $0.watchLimitPrefixes.removeAll { $0 == folder.path } } }
            let configuration = WatchConfiguration(rescanInterval: .milliseconds(30))
            let recorder = UpdateRecorder(watching: folder, configuration: configuration)
            do {
                try await recorder.waitForValue(["a.yaml": "a\n"])
                let error = try #require(recorder.failures.first as? WatchError)
                #expect(error.code == .watchLimitReached)
                #expect(
                    error.description.hasPrefix(
                        "\(folder.path): error: cannot add an inotify watch: the per-user limit fs.inotify.max_user_watches (currently "
                    )
                )
                #expect(
                    error.description.hasSuffix(
                        ") is exhausted; raise it (sysctl -w fs.inotify.max_user_watches=524288); until then the folder is rescanned periodically"
                    )
                )
                #expect(recorder.watcher.statistics.isRescanningPeriodically)
                #expect(recorder.watcher.statistics.watchedFolders == 0)

                try folder.write("a.yaml", "a: 2\n")
                try await recorder.waitForValue(["a.yaml": "a: 2\n"])
                #expect(recorder.watcher.statistics.rescans >= 1)

                // Once a watch can be placed again, inotify takes over and the rescans stop.
                owner.faults.withLock { $0.watchLimitPrefixes.removeAll { $0 == folder.path } }
                try await eventually("inotify to take over") { !recorder.watcher.statistics.isRescanningPeriodically }
                #expect(recorder.watcher.statistics.watchedFolders == 1)
                try folder.write("a.yaml", "a: 3\n")
                try await recorder.waitForValue(["a.yaml": "a: 3\n"])
                #expect(recorder.failures.count == 1)  // reported once
            } catch {
                await recorder.stop()
                throw error
            }
            await recorder.stop()
        }
    }
}
