import Foundation
import Livery
import LiveryRemote
import Testing

/// Poll mode against a real nginx: validators, no validators, error statuses, bad bodies, YAML.
@Suite(.timeLimit(.minutes(1)))
struct PollModeTests {
    private static let interval = Duration.milliseconds(100)

    private func source(_ url: URL) -> RemoteSpecSource {
        let configuration = RemoteSpecSource.Configuration(
            connectTimeout: .seconds(2), backoff: Backoff(base: .milliseconds(100), cap: .milliseconds(300)))
        return RemoteSpecSource(url: url, mode: .poll(interval: Self.interval), configuration: configuration)
    }

    @Test("an atomic edit is seen through nginx's ETag; unchanged polls get 304 and publish nothing")
    func etagAndNotModified() async throws {
        let nginx = try await Nginx(statusBody: bundle(radius: 9))
        defer { #expect(throws: Never.self) { try nginx.stop() } }
        try nginx.write(bundle(radius: 1), to: "spec.json")
        let collector = UpdateCollector(source(nginx.baseURL.appending(path: "spec.json")))
        let first = try await collector.waitForLoaded(1)
        let version = try #require(collector.updates.first?.version)
        #expect(radius(first[0]) == 1)
        #expect(version.etag != nil && version.lastModified != nil)
        // Several revalidations answered 304, and none of them published anything.
        try await eventually { try nginx.statuses(of: "/spec.json").filter { $0 == 304 }.count >= 3 }
        #expect(collector.updates.count == 1)

        try nginx.write(bundle(radius: 22), to: "spec.json")
        let loaded = try await collector.waitForLoaded(2)
        #expect(loaded.map(radius) == [1, 22])
        await collector.cancel()
        #expect(collector.failures.isEmpty)
    }

    @Test("without validators every change is seen by content, and unchanged content is never re-published")
    func noValidators() async throws {
        let nginx = try await Nginx(statusBody: bundle(radius: 9))
        defer { #expect(throws: Never.self) { try nginx.stop() } }
        try nginx.write(bundle(radius: 1), to: "plain/spec.json")
        let collector = UpdateCollector(source(nginx.baseURL.appending(path: "plain/spec.json")))
        try await collector.waitForLoaded(1)
        let version = try #require(collector.updates.first?.version)
        #expect(version.etag == nil && version.lastModified == nil)

        try nginx.write(bundle(radius: 1), to: "plain/spec.json")  // the same bytes, saved again
        let polled = try nginx.statuses(of: "/plain/spec.json").count
        try await eventually { try nginx.statuses(of: "/plain/spec.json").count >= polled + 3 }
        #expect(collector.updates.count == 1)
        try nginx.write(bundle(radius: 2), to: "plain/spec.json")  // same size, new content
        try await collector.waitForLoaded(2)
        try await Task.sleep(for: .milliseconds(300))
        await collector.cancel()
        #expect(collector.loaded.map(radius) == [1, 2])
        let statuses = try nginx.statuses(of: "/plain/spec.json")
        #expect(statuses.count >= 5 && statuses.allSatisfy { $0 == 200 })  // nginx sent no validator to revalidate
    }

    @Test("a 404 or 500 whose body is a valid spec is a failure, never applied", arguments: [404, 500])
    func errorStatus(status: Int) async throws {
        let nginx = try await Nginx(statusBody: bundle(radius: 9))
        defer { #expect(throws: Never.self) { try nginx.stop() } }
        let collector = UpdateCollector(source(nginx.baseURL.appending(path: "status/\(status).json")))
        try await collector.wait { $0.count >= 3 }
        await collector.cancel()
        #expect(collector.loaded.isEmpty)
        for failure in collector.failures {
            let error = try #require(failure as? RemoteError)
            #expect(error.code == .status && error.status == status)
        }
    }

    @Test("a file that is missing fails until it appears, then loads")
    func missingThenPresent() async throws {
        let nginx = try await Nginx(statusBody: bundle(radius: 9))
        defer { #expect(throws: Never.self) { try nginx.stop() } }
        let collector = UpdateCollector(source(nginx.baseURL.appending(path: "later.json")))
        try await collector.wait { $0.count >= 2 }
        #expect(collector.loaded.isEmpty)
        try nginx.write(bundle(radius: 5), to: "later.json")
        try await collector.waitForLoaded(1)
        await collector.cancel()
        #expect(collector.loaded.map(radius) == [5])
    }

    @Test("a body that does not parse fails once with its URL, line and column; the last good stays")
    func badBody() async throws {
        let nginx = try await Nginx(statusBody: bundle(radius: 9))
        defer { #expect(throws: Never.self) { try nginx.stop() } }
        let url = nginx.baseURL.appending(path: "spec.json")
        try nginx.write(bundle(radius: 1), to: "spec.json")
        let collector = UpdateCollector(source(url))
        try await collector.waitForLoaded(1)

        let bad = "{\"specs\": {\"box\": [\n  {\"type\": \"CornerRadius\", \"radius\": }\n]}}"
        try nginx.write(bad, to: "spec.json")
        try await collector.wait { $0.count >= 2 }
        try await Task.sleep(for: .milliseconds(500))  // several more polls: reported once
        let updates = collector.updates
        #expect(updates.count == 2)
        let error = try #require(updates.last?.error as? SpecError)
        let expected = #expect(throws: SpecError.self) { try Spec(json: bad, source: url.absoluteString) }
        #expect(error.description == expected?.description)
        #expect(error.description.hasPrefix("\(url.absoluteString):2:"))

        try nginx.write(bundle(radius: 3), to: "spec.json")
        try await collector.waitForLoaded(2)
        await collector.cancel()
        #expect(collector.loaded.map(radius) == [1, 3])
    }

    @Test(
        "YAML is read by Content-Type, or by extension when the type says nothing",
        arguments: ["spec.yaml", "spec.yml"])
    func yaml(file: String) async throws {
        let nginx = try await Nginx(statusBody: bundle(radius: 9))
        defer { #expect(throws: Never.self) { try nginx.stop() } }
        try nginx.write("specs:\n  box:\n    - type: CornerRadius\n      radius: 7\n", to: file)
        let collector = UpdateCollector(source(nginx.baseURL.appending(path: file)))
        try await collector.waitForLoaded(1)
        await collector.cancel()
        #expect(collector.loaded.map(radius) == [7])
    }
}
