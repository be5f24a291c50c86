import Foundation
import LiveryServer
import LiveryTesting
import NIOHTTP1
import Testing

/// Who may change what clients apply: 401 without the token, 403 with it on a read-only daemon,
/// no CORS grants, and no writes through symbolic links.
@Suite(.timeLimit(.minutes(1))) struct AccessTests {
    @Test func aReadOnlyDaemonAnswers401WithoutTheTokenAnd403WithIt() async throws {
        try await TestDaemon.with(configure: { $0.readOnly = true }) { server in
            let entries = try folderEntries(server.folder)
            let anonymous = try await server.http.put("/v1/specs/new.yaml", "specs: {}\n", token: .some(nil))
            #expect(anonymous.status == 401)
            #expect(anonymous.header("WWW-Authenticate") == #"Bearer realm="livery""#)
            for reply in [
                try await server.http.put("/v1/specs/new.yaml", "specs: {}\n"),
                try await server.http.delete("/v1/specs/card.yaml"),
            ] {
                #expect(reply.status == 403)
                #expect(reply.header("Content-Type") == "application/problem+json")
                let problem = try JSONDecoder().decode(Problem.self, from: reply.body)
                #expect(problem.type == "urn:livery:problem:read-only")
                #expect(
                    problem.detail
                        == "this daemon was started with --read-only: it serves the specs folder and accepts no writes")
            }
            #expect(try folderEntries(server.folder) == entries)
            #expect(try await server.http.get("/v1/spec").status == 200, "reads still work")
        }
    }

    @Test func corsIsOffByDefault() async throws {
        try await TestDaemon.with { server in
            let origin = ("Origin", "https://evil.example")
            let get = try await server.http.get("/v1/spec", headers: [origin])
            #expect(get.status == 200)
            let preflight = try await server.http.send(
                .OPTIONS, "/v1/specs/card.yaml",
                headers: [
                    origin, ("Access-Control-Request-Method", "PUT"),
                    ("Access-Control-Request-Headers", "authorization"),
                ])
            // OPTIONS gets its plain `Allow` answer; a browser grants a preflight only on an
            // `Access-Control-Allow-Origin` naming the page's origin, which never comes.
            #expect(preflight.status == 204 && preflight.header("Allow") == "GET, HEAD, PUT, DELETE, OPTIONS")
            for reply in [get, preflight] {
                let granted = reply.headers.map(\.name).filter { $0.lowercased().hasPrefix("access-control-") }
                #expect(granted.isEmpty, "CORS headers: \(granted)")
            }
        }
    }

    @Test func aPushIsNeverWrittenThroughASymbolicLink() async throws {
        let outside = try TemporarySpecFolder(prefix: "livery-outside")
        let target = "specs:\n  outside: []\n"
        try outside.write("target.yaml", target)
        let folder = try TemporarySpecFolder(prefix: "livery-server")
        try TestDaemon.writeExample(to: folder)
        try FileManager.default.createSymbolicLink(
            at: folder.url("linked.yaml"), withDestinationURL: outside.url("target.yaml"))
        try FileManager.default.createSymbolicLink(at: folder.url("elsewhere"), withDestinationURL: outside.url)
        try await TestDaemon.with(folder: folder) { server in
            let cases = [
                (
                    "linked.yaml",
                    "'linked.yaml' is a symbolic link; pushes replace only plain files of the specs folder"
                ),
                (
                    "elsewhere/new.yaml",
                    "'elsewhere/new.yaml' passes through 'elsewhere', which is not a plain folder (a file or a symbolic link)"
                ),
            ]
            for (path, detail) in cases {
                for reply in [
                    try await server.http.put("/v1/specs/\(path)", "specs:\n  pushed: []\n"),
                    try await server.http.delete("/v1/specs/\(path)"),
                ] {
                    #expect(reply.status == 400)
                    let problem = try JSONDecoder().decode(Problem.self, from: reply.body)
                    #expect(problem.type == "urn:livery:problem:forbidden-path")
                    #expect(problem.detail.hasPrefix(detail), "\(problem.detail)")
                }
            }
        }
        #expect(try String(contentsOf: outside.url("target.yaml"), encoding: .utf8) == target)
        #expect(try folderEntries(outside) == ["target.yaml"], "nothing was written outside")
        let link = try FileManager.default.destinationOfSymbolicLink(atPath: folder.url("linked.yaml").path)
        #expect(link == outside.url("target.yaml").path, "the link itself is untouched")
    }

    @Test(arguments: [
        ("127.0.0.1", true), ("127.1.2.3", true), ("localhost", true), ("::1", true), ("[::1]", true),
        ("0.0.0.0", false), ("192.168.1.20", false), ("::", false), ("example.com", false), ("127.0.0.256", false),
    ])
    func loopbackAddressesAreRecognised(host: String, loopback: Bool) {
        let configuration = DaemonConfiguration(directory: URL(filePath: "/tmp"), host: host)
        #expect(configuration.isLoopback == loopback)
    }
}
