import Foundation
import LiveryTesting
import Testing

@Suite(.timeLimit(.minutes(1))) struct ValidateCommandTests {
    @Test func goodFolderExitsZero() async throws {
        let folder = try TemporarySpecFolder()
        try folder.write("a.yaml", "specs: { a: [{ type: Hidden, hidden: true }] }")
        let (status, output) = try await LiveryProcess.run(["validate", folder.url.path])
        #expect(status == 0)
        #expect(output == "\(folder.url.path): ok\n")
    }

    @Test func errorsPrintInCompilerStyleWithTheFolderAsGivenAndExitOne() async throws {
        let folder = try TemporarySpecFolder()
        try folder.write(
            "specs/a.yaml", "specs:\n  a: [{ type: Hiden, hidden: true }]\n  b: [{ type: Opacity, opacity: 2 }]")
        let (status, output) = try await LiveryProcess.run(["validate", "specs"], in: folder.url)
        #expect(status == 1)
        #expect(
            output == """
                specs/a.yaml:2:15: error: unknown trait type 'Hiden'; did you mean 'Hidden'?
                specs/a.yaml:3:33: error: 'opacity' of trait Opacity: 2.0 is out of range 0...1

                """)
    }

    @Test func jsonFormatForTools() async throws {
        let folder = try TemporarySpecFolder()
        try folder.write("a.json", #"{"specs": {"a": [{"type": "Nope"}]}}"#)
        let (status, output) = try await LiveryProcess.run(["validate", "--format", "json", "a.json"], in: folder.url)
        #expect(status == 1)
        let report = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any]
        #expect(report?["ok"] as? Bool == false)
        let first = (report?["errors"] as? [[String: Any]])?.first
        #expect(first?["file"] as? String == "a.json")
        #expect(first?["line"] as? Int == 1)
        #expect(first?["column"] as? Int == 27)
        #expect(first?["code"] as? String == "unknownTrait")
        #expect(first?["message"] as? String == "unknown trait type 'Nope'")
    }

    @Test func missingPathIsAnError() async throws {
        let (status, output) = try await LiveryProcess.run(["validate", "/nonexistent/specs"])
        #expect(status == 1)
        #expect(output == "/nonexistent/specs:1:1: error: no such file or folder\n")
    }
}
