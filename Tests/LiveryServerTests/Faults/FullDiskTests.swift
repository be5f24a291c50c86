import Foundation
import Livery
import LiveryServer
import LiveryTesting
import Testing

/// A push onto a full disk: 507 with a problem document, the file on disk and the bundle
/// unchanged, no temporary file left; once there is room again the same push succeeds.
@Suite(.timeLimit(.minutes(1))) struct FullDiskTests {
    @Test(
        .enabled(
            "cannot mount a tmpfs here: not root, and no user and mount namespaces (unshare -rm), so no full disk can be made"
        ) { TinyDisk.isAvailable ? true : await MountNamespace.isAvailable })
    func aPushOntoAFullDiskIs507AndLosesNothing() async throws {
        guard TinyDisk.isAvailable else {
            // Not permitted to mount here: run this very test again where it is.
            let child = try await MountNamespace.runTest(named: "aPushOntoAFullDiskIs507AndLosesNothing")
            #expect(child.status == 0, "in a user and mount namespace: \(child.output)")
            #expect(child.output.contains("aPushOntoAFullDiskIs507AndLosesNothing() passed"), "\(child.output)")
            return
        }
        let folder = try TemporarySpecFolder(prefix: "livery-full")
        let disk = try TinyDisk(over: folder.url)
        defer { disk.unmount() }
        try TestDaemon.writeExample(to: folder)
        let card = try String(contentsOf: folder.url("card.yaml"), encoding: .utf8)
        try await TestDaemon.with(folder: folder) { server in
            let good = try await server.http.get("/v1/spec")
            try #require(good.status == 200)
            try disk.fill()
            let bigger =
                card + String(repeating: "# a comment that makes the file larger than the space left\n", count: 200)
            let reply = try await server.http.put("/v1/specs/card.yaml", bigger)
            #expect(reply.status == 507)
            #expect(reply.header("Content-Type") == "application/problem+json")
            let problem = try JSONDecoder().decode(Problem.self, from: reply.body)
            #expect(problem.type == "urn:livery:problem:insufficient-storage")
            #expect(problem.title == "Insufficient storage")
            #expect(problem.detail.contains("no space left on the device"), "\(problem.detail)")
            #expect(problem.detail.hasSuffix("; nothing was written and the current file is unchanged"))
            #expect(try String(contentsOf: folder.url("card.yaml"), encoding: .utf8) == card)
            #expect(try folderEntries(folder) == [".filler", "card.yaml", "palette.yaml"], "no temporary file is left")
            let still = try await server.http.get("/v1/spec")
            #expect(still.header("ETag") == good.header("ETag"))

            try disk.empty()
            let retried = try await server.http.put("/v1/specs/card.yaml", bigger)
            #expect(retried.status == 200, "\(retried.text)")
            #expect(try String(contentsOf: folder.url("card.yaml"), encoding: .utf8) == bigger)
        }
    }
}
