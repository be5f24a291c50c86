import Foundation
import LiveryTesting
import Testing

@testable import LiveryServer

/// One write changes at most `SpecWriter.maxFiles` files and carries at most `SpecWriter.maxBytes`.
@Suite(.timeLimit(.minutes(1))) struct PublishLimitTests {
    @Test func aPublishOfTooManyFilesIsRefusedWithTheLimit() async throws {
        try await TestDaemon.with { server in
            var files: [String: String?] = [:]
            for index in 0...SpecWriter.maxFiles { files["many/f\(index).yaml"] = "specs:\n  f\(index): []\n" }
            let refused = try await server.http.publish(files)
            #expect(refused.status == 422)
            #expect(try refused.json()["type"] as? String == "urn:livery:problem:too-many-files")
            #expect(refused.text.contains("at most \(SpecWriter.maxFiles)"), "\(refused.text)")
            #expect(!FileManager.default.fileExists(atPath: server.folder.url("many").path), "nothing was written")

            files.removeValue(forKey: "many/f0.yaml")
            #expect(try await server.http.publish(files).status == 200, "the limit itself is allowed")
        }
    }

    @Test func aPublishOfTooManyBytesIsRefusedWithTheLimit() async throws {
        try await TestDaemon.with(maxBodyBytes: 4 * SpecWriter.maxBytes) { server in
            let comment = "# " + String(repeating: "x", count: SpecWriter.maxBytes / 2) + "\n"
            let refused = try await server.http.publish([
                "a.yaml": comment + "specs: {}\n", "b.yaml": comment + "specs: {}\n",
            ])
            #expect(refused.status == 413)
            #expect(try refused.json()["type"] as? String == "urn:livery:problem:change-too-large")
            #expect(refused.text.contains("at most \(SpecWriter.maxBytes)"), "\(refused.text)")
            #expect(!FileManager.default.fileExists(atPath: server.folder.url("a.yaml").path))
        }
    }
}
