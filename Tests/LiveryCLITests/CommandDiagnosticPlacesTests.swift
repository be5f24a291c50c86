import Foundation
import Livery
import LiveryCLI
import LiveryServer
import LiveryTesting
import LiveryWatch
import Testing

/// Every place in a diagnostic — its location, "first defined at", each step of a cycle — is
/// named against one base on each surface of the command line (validate as text and as JSON,
/// watch, the demo's error line), whether it runs from the specs folder's parent or inside it.
@Suite(.timeLimit(.minutes(1))) struct CommandDiagnosticPlacesTests {
    /// A specs folder with one mistake whose diagnostic names places in two folders.
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var files: [(path: String, text: String)]
        /// The diagnostic, with `{}` where each file of the specs folder starts.
        var expected: String

        var testDescription: String { name }

        /// The diagnostic with every file of the specs folder written after `base`.
        func expected(base: String) -> String { expected.replacingOccurrences(of: "{}", with: base) }

        /// A temporary root holding the specs as `Specs/…`.
        func root() throws -> TemporarySpecFolder {
            let root = try TemporarySpecFolder()
            for file in files { try root.write("Specs/" + file.path, file.text) }
            return root
        }
    }

    static let cases = [
        Case(
            name: "a duplicate identifier across folders",
            files: [("a.yaml", "specs:\n  a: []\n"), ("sub/b.yaml", "specs:\n  a: []\n")],
            expected: "{}sub/b.yaml:2:3: error: duplicate identifier 'a' (first defined at {}a.yaml:2:3)"),
        Case(
            name: "an include cycle across folders",
            files: [
                ("c.yaml", "include: [sub/d.yaml]\nspecs: {}\n"), ("sub/d.yaml", "include: [../c.yaml]\nspecs: {}\n"),
            ],
            expected: "{}sub/d.yaml:1:11: error: include cycle: {}c.yaml → {}sub/d.yaml → {}c.yaml"),
        Case(
            name: "a reference cycle across folders",
            files: [
                ("e.yaml", "variables: { x: '@y' }\nspecs: { e: [{ type: BackgroundColor, color: '@x' }] }\n"),
                ("sub/f.yaml", "variables: { y: '@x' }\n"),
            ],
            expected: "{}sub/f.yaml:1:17: error: reference cycle: @x ({}e.yaml:1:17) → @y ({}sub/f.yaml:1:17) → @x"),
    ]

    /// Where the command runs (relative to the root), how it names the folder, and the base its
    /// diagnostics must use for every file.
    static let vantagePoints = [
        (directory: "", folder: "Specs", base: "Specs/"), (directory: "Specs", folder: ".", base: ""),
    ]

    @Test(arguments: cases) func validateText(_ bad: Case) async throws {
        let root = try bad.root()
        for point in Self.vantagePoints {
            let (status, output) = try await LiveryProcess.run(
                ["validate", point.folder], in: root.url(point.directory))
            #expect(status == 1)
            #expect(
                output == bad.expected(base: point.base) + "\n",
                "from \(point.directory.isEmpty ? "the parent" : "inside")")
        }
    }

    @Test(arguments: cases) func validateJSON(_ bad: Case) async throws {
        let root = try bad.root()
        for point in Self.vantagePoints {
            let (status, output) = try await LiveryProcess.run(
                ["validate", "--format", "json", point.folder], in: root.url(point.directory))
            #expect(status == 1)
            let report = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
            let errors = try #require(report["errors"] as? [[String: Any]])
            let rendered = errors.map { error in
                "\(error["file"] ?? ""):\(error["line"] ?? ""):\(error["column"] ?? ""): error: \(error["message"] ?? "")"
            }
            #expect(
                rendered == [bad.expected(base: point.base)],
                "from \(point.directory.isEmpty ? "the parent" : "inside")")
            // The places travel as data too, in the daemon's diagnostic shape, named like `file`.
            struct Report: Decodable { var errors: [Diagnostic] }
            let diagnostics = try JSONDecoder().decode(Report.self, from: Data(output.utf8)).errors
            let parts = try #require(diagnostics.first?.messageParts)
            #expect(!parts.places.isEmpty)
            #expect(parts.description == diagnostics.first?.message)
        }
    }

    @Test(arguments: cases) func watch(_ bad: Case) async throws {
        let root = try bad.root()
        for point in Self.vantagePoints {
            let livery = LiveryProcess(["watch", point.folder], in: root.url(point.directory))
            var lines = livery.lines.makeAsyncIterator()
            try await livery.start()
            defer { livery.stop() }
            #expect(try await lines.next() == "watching \(point.folder) (Ctrl-C to stop)")
            #expect(try await lines.next() == bad.expected(base: point.base))
        }
    }

    @Test(arguments: cases) func demoErrorLine(_ bad: Case) throws {
        let root = try bad.root()
        let errors = Spec.validate(try SpecSourceSet(directory: root.url("Specs")))
        for point in Self.vantagePoints {
            let session = DemoSession(folder: point.folder, serverURL: nil)
            _ = session.handle(.specs(.failed(SpecErrors(errors))))
            #expect(session.status.error == bad.expected(base: point.base))
        }
    }
}
