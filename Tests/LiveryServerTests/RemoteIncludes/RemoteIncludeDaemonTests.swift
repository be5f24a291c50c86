import Foundation
import Livery
import LiveryRemote
import LiveryServer
import LiveryTesting
import Testing

/// Remote includes through the real daemon and the real fetcher: off by default, an allowed
/// prefix inlined into the bundle, refusals that never reach the network, and the last good
/// bundle kept when a fetch fails.
@Suite(.timeLimit(.minutes(1))) struct RemoteIncludeDaemonTests {
    static let palette = "variables:\n  colors: { accent: '#FF9F0A' }\n"

    static func card(including url: String) -> String {
        "include: ['\(url)']\nspecs:\n  card: [{ type: BackgroundColor, color: '@colors.accent' }]\n"
    }

    /// A folder whose card includes `url`.
    static func folder(including url: String) throws -> TemporarySpecFolder {
        let folder = try TemporarySpecFolder(prefix: "livery-remote-include")
        try folder.write("card.yaml", card(including: url))
        return folder
    }

    static func allowing(_ prefixes: [String]) throws -> (inout DaemonConfiguration) -> Void {
        let allowList = try IncludeAllowList(prefixes)
        return { configuration in
            configuration.allowedIncludes = allowList
            configuration.includeFetcher = HTTPIncludeFetcher(configuration: .init(timeout: .seconds(2)))
        }
    }

    @Test func offByDefaultWithTheLocatedErrorAndNoRequest() async throws {
        try await IncludeServer.with { cdn in
            cdn.serve("/brand/palette.yaml", document: Self.palette)
            let folder = try Self.folder(including: cdn.base + "/brand/palette.yaml")
            try await TestDaemon.with(folder: folder) { server in
                let reported = try await TestDaemon.eventually { !server.daemon.hub.errors.isEmpty }
                #expect(reported)
                #expect(
                    server.daemon.hub.errors.first?.compilerStyle
                        == "card.yaml:1:11: error: remote includes are off: '\(cdn.base)/brand/palette.yaml' is not fetched; enable it with --allow-include \(cdn.base)/brand/"
                )
                #expect(try await server.http.get("/v1/spec").status == 503)
            }
            #expect(cdn.requests.isEmpty)
        }
    }

    @Test func anAllowedPrefixIsFetchedAndInlinedInTheBundle() async throws {
        try await IncludeServer.with { cdn in
            cdn.serve("/brand/palette.yaml", document: Self.palette)
            let folder = try Self.folder(including: cdn.base + "/brand/palette.yaml")
            try await TestDaemon.with(folder: folder, configure: try Self.allowing([cdn.base + "/brand/"])) { server in
                // The first load fetches the include; under load it may outlast the start-up wait.
                #expect(try await TestDaemon.eventually { server.daemon.hub.snapshot != nil })
                let reply = try await server.http.get("/v1/spec")
                #expect(reply.status == 200)
                #expect(reply.text.contains("#FF9F0A"))
                #expect(!reply.text.contains("include"))  // inlined: clients never fetch it
                let provider = TraitsProvider()
                let box = StyledBox()
                provider.register(box, as: "card")
                try provider.load(Spec(json: reply.text))
                #expect(box.backgroundColor == Color(hex: "#FF9F0A"))
            }
            #expect(cdn.requests.map(\.path) == ["/brand/palette.yaml"])
        }
    }

    @Test func aFailedFetchKeepsTheLastGoodBundleAndReportsItAtTheInclude() async throws {
        try await IncludeServer.with { cdn in
            cdn.serve("/brand/palette.yaml", document: Self.palette)
            let url = cdn.base + "/brand/palette.yaml"
            let folder = try Self.folder(including: url)
            try await TestDaemon.with(folder: folder, configure: try Self.allowing([cdn.base + "/brand/"])) { server in
                #expect(try await TestDaemon.eventually { server.daemon.hub.snapshot != nil })
                let good = try await server.http.get("/v1/spec")
                #expect(good.status == 200)
                cdn.serve("/brand/palette.yaml", .init(status: 404))
                // A local edit reloads the folder, which fetches the include again.
                try folder.atomicSave("card.yaml", Self.card(including: url) + "  other: []\n")
                var errors: [Diagnostic] = []
                let deadline = ContinuousClock.now + .seconds(5)
                while errors.isEmpty, ContinuousClock.now < deadline {
                    errors = server.daemon.hub.errors
                    if errors.isEmpty { try await Task.sleep(for: .milliseconds(10)) }
                }
                #expect(errors.first?.compilerStyle == "card.yaml:1:11: error: cannot fetch \(url): 404 Not Found")
                let after = try await server.http.get("/v1/spec")
                #expect(after.text == good.text)
                #expect(after.header("ETag") == good.header("ETag"))
            }
        }
    }

    @Test func aPushNamingAnAllowedURLIsFetchedAndValidatedAnotherIsRefused() async throws {
        try await IncludeServer.with { cdn in
            // The example folder has its own `colors`; the pushed spec's remote variables are others.
            cdn.serve("/brand/chip.yaml", document: "variables:\n  chipColors: { fill: '#30D158' }\n")
            try await TestDaemon.with(configure: try Self.allowing([cdn.base + "/brand/"])) { server in
                let pushed = try await server.http.put(
                    "/v1/specs/chip.yaml",
                    "include: ['\(cdn.base)/brand/chip.yaml']\nspecs:\n  chip: [{ type: BackgroundColor, color: '@chipColors.fill' }]\n"
                )
                #expect(pushed.status == 201, "\(pushed.text)")
                let bundle = try await TestDaemon.eventually {
                    try await server.http.get("/v1/spec").text.contains("#30D158")
                }
                #expect(bundle)
                let refused = try await server.http.put(
                    "/v1/specs/evil.yaml", "include: ['\(cdn.base)/admin/keys.yaml']\nspecs: {}\n")
                #expect(refused.status == 422)
                #expect(refused.text.contains("is not in the allow-list"))
            }
            #expect(cdn.requests.map(\.path).allSatisfy { $0 == "/brand/chip.yaml" })
        }
    }
}

/// Every refusal through the real loader and fetcher: the URL is refused before any request.
@Suite(.timeLimit(.minutes(1))) struct RemoteIncludeRefusalTests {
    @Test(arguments: [
        (
            "{base}/brandy/palette.yaml",
            "remote include '{base}/brandy/palette.yaml' is not in the allow-list ({base}/brand/); enable it with --allow-include {base}/brandy/"
        ),
        (
            "http://user@127.0.0.1:{port}/brand/palette.yaml",
            "remote include 'http://user@127.0.0.1:{port}/brand/palette.yaml' has user information ('…@'); credentials in include URLs are not allowed"
        ),
        (
            "http://127.0.0.1.evil.net:{port}/brand/palette.yaml",
            "remote include 'http://127.0.0.1.evil.net:{port}/brand/palette.yaml' is not in the allow-list ({base}/brand/); enable it with --allow-include http://127.0.0.1.evil.net:{port}/brand/"
        ),
        (
            "http://127.0.0.1:{otherPort}/brand/palette.yaml",
            "remote include 'http://127.0.0.1:{otherPort}/brand/palette.yaml' is not in the allow-list ({base}/brand/); enable it with --allow-include http://127.0.0.1:{otherPort}/brand/"
        ),
        (
            "{base}/brand/../secret.yaml",
            "remote include '{base}/brand/../secret.yaml' has a '..' segment in its path; write the path without it"
        ),
        (
            "{base}/brand/%2E%2E/secret.yaml",
            "remote include '{base}/brand/%2E%2E/secret.yaml' has an encoded '/', '\\', '.' or NUL (%2E) in its path"
        ),
        (
            "file:///etc/passwd",
            "remote include 'file:///etc/passwd' uses the scheme 'file'; only http and https URLs can be included"
        ),
        (
            "ftp://127.0.0.1:{port}/brand/palette.yaml",
            "remote include 'ftp://127.0.0.1:{port}/brand/palette.yaml' uses the scheme 'ftp'; only http and https URLs can be included"
        ),
    ])
    func refusedWithoutARequest(_ include: String, _ message: String) async throws {
        try await IncludeServer.with { cdn in
            cdn.serve("/brand/palette.yaml", document: "variables: {}\n")
            cdn.serve("/secret.yaml", document: "variables: {}\n")
            let fill = { (text: String) in
                text.replacingOccurrences(of: "{base}", with: cdn.base)
                    .replacingOccurrences(of: "{port}", with: "\(cdn.port)")
                    .replacingOccurrences(of: "{otherPort}", with: "\(cdn.port == 65535 ? 1 : cdn.port + 1)")
            }
            let errors = try await Self.errors(including: fill(include), allowing: cdn)
            #expect(errors == ["card.yaml:1:11: error: " + fill(message)])
            #expect(cdn.requests.isEmpty)
        }
    }

    @Test func aRedirectToAHostNotAllowedIsNotFollowed() async throws {
        try await IncludeServer.with { metadataHost in
            metadataHost.serve("/metadata.yaml", document: "variables: { secret: 'x' }\n")
            try await IncludeServer.with { cdn in
                cdn.serve(
                    "/brand/palette.yaml",
                    .init(status: 301, headers: ["Location": metadataHost.base + "/metadata.yaml"]))
                let errors = try await Self.errors(including: cdn.base + "/brand/palette.yaml", allowing: cdn)
                #expect(
                    errors == [
                        "card.yaml:1:11: error: cannot fetch \(cdn.base)/brand/palette.yaml: 301 Moved Permanently (redirects are not followed; include the final URL)"
                    ])
                #expect(metadataHost.requests.isEmpty)
            }
        }
    }

    @Test func aRemoteDocumentIncludingALocalFileIsRefused() async throws {
        try await IncludeServer.with { cdn in
            cdn.serve("/brand/palette.yaml", document: "include: [secret.yaml]\nvariables: {}\n")
            let errors = try await Self.errors(
                including: cdn.base + "/brand/palette.yaml", allowing: cdn,
                besides: ["secret.yaml": "variables: { token: 'hunter2' }\n"])
            #expect(
                errors == [
                    "\(cdn.base)/brand/palette.yaml:1:11: error: include 'secret.yaml' in a remote document names a local file; a remote document can include only URLs the allow-list enables"
                ])
        }
    }

    /// The errors of a folder whose `card.yaml` includes `url` (beside `files`), loaded by the
    /// real loader and fetcher with `cdn`'s `/brand/` allowed; empty if it loads.
    static func errors(
        including url: String, allowing cdn: IncludeServer, besides files: [String: String] = [:]
    ) async throws -> [String] {
        let folder = try TemporarySpecFolder(prefix: "livery-remote-refusal")
        try folder.write("card.yaml", "include: ['\(url)']\nspecs: {}\n")
        for (path, text) in files { try folder.write(path, text) }
        let loader = SpecFolderLoader(
            allowList: try IncludeAllowList([cdn.base + "/brand/"]), fetcher: HTTPIncludeFetcher())
        do {
            _ = try await loader.load(folder.url)
            return []
        } catch let errors as SpecErrors {
            return errors.errors.map(\.description)
        }
    }
}
