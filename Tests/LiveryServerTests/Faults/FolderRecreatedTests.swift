import Foundation
import Livery
import LiveryServer
import LiveryTesting
import Testing

/// The watched folder deleted and re-created while the daemon runs: the last good bundle stays
/// served while the folder is gone (the status says why), and the new content is served once
/// it is back.
@Suite(.timeLimit(.minutes(1))) struct FolderRecreatedTests {
    @Test func theDaemonRecoversWhenItsFolderIsDeletedAndRecreated() async throws {
        try await TestDaemon.with { server in
            let good = try await server.http.get("/v1/spec")
            try #require(good.status == 200)
            try FileManager.default.removeItem(at: server.folder.url)
            let reported = try await TestDaemon.eventually(timeout: .seconds(10)) {
                let status = try JSONDecoder().decode(
                    DaemonStatus.self, from: try await server.http.get("/v1/status").body)
                return !status.errors.isEmpty
            }
            #expect(reported, "the missing folder is reported")
            let meanwhile = try await server.http.get("/v1/spec")
            #expect(meanwhile.status == 200)
            #expect(meanwhile.header("ETag") == good.header("ETag"))

            try FileManager.default.createDirectory(at: server.folder.url, withIntermediateDirectories: true)
            try TestDaemon.writeExample(to: server.folder, accent: "#FF0000")
            let expected = BundleSnapshot(spec: try Spec(directory: server.folder.url)).etag.description
            let recovered = try await TestDaemon.eventually(timeout: .seconds(10)) {
                try await server.http.get("/v1/spec").header("ETag") == expected
            }
            #expect(recovered)
            let status = try JSONDecoder().decode(DaemonStatus.self, from: try await server.http.get("/v1/status").body)
            #expect(status.errors.isEmpty)
        }
    }
}
