import Foundation
import Livery
import LiveryRemote
import LiveryTestSupport
import LiveryTesting
import Testing

/// The `Livery-Client` header as the real daemon receives it, seen through a recording proxy
/// and parsed with the type the daemon will use.
@Suite(.timeLimit(.minutes(1)), .inotifyShared)
struct ClientHeaderTests {
    @Test("every long-poll says who the client is and the ETag it has applied, once it has")
    @MainActor func reportsTheAppliedVersion() async throws {
        let folder = try TemporarySpecFolder(prefix: "livery-header")
        try folder.write("box.yaml", "specs:\n  box:\n    - { type: CornerRadius, radius: 4 }\n")
        let daemon = try await RunningDaemon.start(folder: folder)
        let proxy = try await RecordingProxy.start(upstream: daemon.url)
        let identity = try ClientIdentity(name: "header-test", instance: "host:1", appVersion: "3.1")
        let configuration = RemoteSpecSource.Configuration(connectTimeout: .seconds(1), identity: identity)
        let provider = TraitsProvider()
        let box = StyledBox()
        provider.register(box, as: "box")
        let follow = Task {
            await provider.follow(url: proxy.url, mode: .longPoll(wait: .seconds(1)), configuration: configuration)
        }
        try await eventually { box.cornerRadius == 4 }
        try folder.atomicSave("box.yaml", "specs:\n  box:\n    - { type: CornerRadius, radius: 6 }\n")
        try await eventually { box.cornerRadius == 6 }
        let served = { proxy.seen.filter { $0.status == 200 } }
        try await eventually {
            proxy.seen.last?.client?.contains(served().last?.etag?.dropFirst().dropLast() ?? "-") == true
        }
        follow.cancel()
        await follow.value
        try await proxy.stop()
        await daemon.stop()

        let seen = proxy.seen
        let headers = try seen.map { try LiveryClientHeader(fieldValue: try #require($0.client)) }
        #expect(headers.allSatisfy { $0.identity == identity && $0.skipped.isEmpty })
        // A request reports a version fetched before it, never one ahead, and never goes back:
        // the next request may leave before the provider has applied the last answer.
        var fetched: [String?] = [nil]
        var reported = 0
        for (request, header) in zip(seen, headers) {
            let index = try #require(fetched.lastIndex(of: header.applied), "request to \(request.path)")
            #expect(index >= reported, "request to \(request.path) went back to an older version")
            reported = index
            if request.status == 200 { fetched.append(request.etag) }
        }
        #expect(fetched.count == 3)
        #expect(headers.first?.applied == nil)
    }

    @Test("a version fetched but refused by the provider is never reported as applied")
    @MainActor func reportsOnlyWhatWasApplied() async throws {
        final class Plain {}  // no capability: a CornerRadius for it fails to apply
        let folder = try TemporarySpecFolder(prefix: "livery-header")
        try folder.write("box.yaml", "specs:\n  box:\n    - { type: CornerRadius, radius: 4 }\n")
        let daemon = try await RunningDaemon.start(folder: folder)
        let proxy = try await RecordingProxy.start(upstream: daemon.url)
        let provider = TraitsProvider()
        let box = StyledBox()
        let plain = Plain()
        provider.register(box, as: "box")
        provider.register(plain, as: "plain")
        var refusals = 0
        let follow = Task {
            await provider.follow(
                url: proxy.url, mode: .longPoll(wait: .seconds(1)),
                configuration: RemoteSpecSource.Configuration(connectTimeout: .seconds(1))
            ) { result in
                if case .failure = result { refusals += 1 }
            }
        }
        try await eventually { box.cornerRadius == 4 }
        let good = try #require(proxy.seen.first { $0.status == 200 }?.etag)
        try folder.atomicSave(
            "box.yaml",
            "specs:\n  box:\n    - { type: CornerRadius, radius: 6 }\n  plain:\n    - { type: CornerRadius, radius: 1 }\n"
        )
        try await eventually { refusals == 1 }
        let afterRefusal = proxy.seen.count
        try await eventually { proxy.seen.count >= afterRefusal + 2 }
        follow.cancel()
        await follow.value
        try await proxy.stop()
        await daemon.stop()

        #expect(box.cornerRadius == 4, "the refused spec was rolled back")
        #expect(proxy.seen.filter { $0.status == 200 }.count == 2)
        for request in proxy.seen.dropFirst(afterRefusal) {
            let header = try LiveryClientHeader(fieldValue: try #require(request.client))
            #expect(header.applied == good)
        }
    }
}
