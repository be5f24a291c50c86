import Foundation
import LiveryServer
import LiveryTesting
import Testing

/// Every place in a diagnostic — its location, "first defined at", each step of a cycle — is
/// named against one base: the daemon's `/v1/status` names all of them relative to its folder,
/// and `livery push` renders a 422 with all of them under the pushed file's local folder.
@Suite(.timeLimit(.minutes(1))) struct DaemonDiagnosticPlacesTests {
    /// Files already on the daemon, a file pushed (or written) beside them, and the diagnostic,
    /// with `{}` where each file of the specs folder starts.
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var existing: (path: String, text: String)
        var pushed: (path: String, text: String)
        var expected: String

        var testDescription: String { name }

        func expected(base: String) -> String { expected.replacingOccurrences(of: "{}", with: base) }
    }

    static let cases = [
        Case(
            name: "a duplicate identifier across folders",
            existing: ("a.yaml", "specs:\n  a: []\n"), pushed: ("sub/b.yaml", "specs:\n  a: []\n"),
            expected: "{}sub/b.yaml:2:3: error: duplicate identifier 'a' (first defined at {}a.yaml:2:3)"),
        Case(
            name: "an include cycle across folders",
            existing: ("c.yaml", "include: [sub/d.yaml]\nspecs: {}\n"),
            pushed: ("sub/d.yaml", "include: [../c.yaml]\nspecs: {}\n"),
            expected: "{}sub/d.yaml:1:11: error: include cycle: {}c.yaml → {}sub/d.yaml → {}c.yaml"),
        Case(
            name: "a reference cycle across folders",
            existing: ("e.yaml", "variables: { x: '@y' }\nspecs: { e: [{ type: BackgroundColor, color: '@x' }] }\n"),
            pushed: ("sub/f.yaml", "variables: { y: '@x' }\n"),
            expected: "{}sub/f.yaml:1:17: error: reference cycle: @x ({}e.yaml:1:17) → @y ({}sub/f.yaml:1:17) → @x"),
    ]

    @Test(arguments: cases) func statusNamesEveryPlaceRelativeToTheFolder(_ bad: Case) async throws {
        try await TestDaemon.with { server in
            try server.folder.write(bad.existing.path, bad.existing.text)
            try server.folder.write(bad.pushed.path, bad.pushed.text)
            let expected = bad.expected(base: "")
            #expect(try await TestDaemon.eventually { try await Self.lastError(of: server)?.compilerStyle == expected })
            let last = try #require(try await Self.lastError(of: server))
            #expect(last.compilerStyle == expected)
            // The places travel as data too, relative to the folder like `file`.
            let places = last.messageParts?.places ?? []
            #expect(!places.isEmpty)
        }
    }

    private static func lastError(of server: TestDaemon) async throws -> Diagnostic? {
        struct Status: Decodable { var lastError: Diagnostic? }
        return try JSONDecoder().decode(Status.self, from: try await server.http.get("/v1/status").body).lastError
    }

    @Test(arguments: cases) func pushNamesEveryPlaceUnderTheLocalFolder(_ bad: Case) async throws {
        try await TestDaemon.with { server in
            try server.folder.write(bad.existing.path, bad.existing.text)
            let local = try TemporarySpecFolder(prefix: "livery-push")
            let tokenFile = local.url("token")
            try TestDaemon.token.write(to: tokenFile, atomically: true, encoding: .utf8)
            try local.write("Specs/" + bad.pushed.path, bad.pushed.text)
            for (directory, file, base) in [("", "Specs/" + bad.pushed.path, "Specs/"), ("Specs", bad.pushed.path, "")]
            {
                let refused = try await Subprocess.run(
                    ["push", file, "--as", bad.pushed.path, "--server", server.base, "--token-file", tokenFile.path],
                    in: local.url(directory))
                #expect(refused.status == 1)
                let lines = refused.stderr.split(separator: "\n").map(String.init)
                #expect(
                    lines.first == bad.expected(base: base),
                    "from \(directory.isEmpty ? "the parent" : "inside"): \(refused.stderr)")
                #expect(lines.last?.hasPrefix("error: push refused, 422 ") == true)
            }
        }
    }
}
