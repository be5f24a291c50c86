import Foundation
import LiveryTesting
import Testing

/// Remote includes in the core: the strict URL reading, the allow-list, and resolution against a
/// table of fetched documents (no network here; `LiveryRemoteTests` fetches for real).
@Suite struct RemoteIncludeTests {
    static let at = SourceLocation.start(of: "card.yaml")

    @Test(arguments: [
        ("https://CDN.Example.com/brand/palette.yaml", "https://cdn.example.com/brand/palette.yaml"),
        ("HTTPS://cdn.example.com:443/brand/p.yaml", "https://cdn.example.com/brand/p.yaml"),
        ("http://cdn.example.com:80/p.json?v=3", "http://cdn.example.com/p.json?v=3"),
        ("http://127.0.0.1:8080", "http://127.0.0.1:8080/"),
        ("http://[::1]:9000/a%20b.yaml", "http://[::1]:9000/a%20b.yaml"),
    ])
    func readsAndCanonicalises(_ text: String, _ canonical: String) throws {
        #expect(try RemoteIncludeURL(text, at: Self.at).description == canonical)
    }

    @Test(arguments: [
        (
            "https://a@cdn.example.com/p.yaml",
            "has user information ('…@'); credentials in include URLs are not allowed"
        ),
        ("https://cdn.example.com:99999/p.yaml", "has an invalid port '99999'"),
        ("https://cdn.example.com:/p.yaml", "has an invalid port ''"),
        ("ftp://cdn.example.com/p.yaml", "uses the scheme 'ftp'; only http and https URLs can be included"),
        ("gopher://127.0.0.1:6379/_p.yaml", "uses the scheme 'gopher'; only http and https URLs can be included"),
        ("https://cdn.example.com/brand/../secret.yaml", "has a '..' segment in its path; write the path without it"),
        ("https://cdn.example.com/brand/%2e%2e/secret.yaml", "has an encoded '/', '\\', '.' or NUL (%2e) in its path"),
        ("https://cdn.example.com/brand%2F..%2Fsecret.yaml", "has an encoded '/', '\\', '.' or NUL (%2F) in its path"),
        ("https://cdn.example.com/brand/%zz.yaml", "has a '%' that is not followed by two hex digits"),
        (
            "https://cdn.example.com\\@evil.net/p.yaml",
            "contains the character \"\\\\\"; write it percent-encoded (and a host in punycode)"
        ),
        ("https://cdn.example.com/p.yaml#x", "has a fragment ('#'); remove it"),
        (
            "https://cdn..example.com/p.yaml",
            "has an invalid host 'cdn..example.com'; a host is letters, digits and '-' in dot-separated labels"
        ),
        ("https:///p.yaml", "has no host"),
    ])
    func refusesWhatParsersCouldReadOtherwise(_ text: String, _ reason: String) {
        #expect(throws: SpecError(.forbiddenPath, at: Self.at, "remote include '\(text)' \(reason)")) {
            try RemoteIncludeURL(text, at: Self.at)
        }
    }

    @Test(arguments: [
        ("https://cdn.example.com/brand/palette.yaml", true),
        ("https://CDN.EXAMPLE.COM:443/brand/sub/palette.yaml", true),
        ("https://cdn.example.com/brandy/palette.yaml", false),  // not at a segment boundary
        ("https://cdn.example.com/other/palette.yaml", false),
        ("https://cdn.example.com.evil.net/brand/palette.yaml", false),  // lookalike host
        ("https://evil.net/cdn.example.com/brand/palette.yaml", false),
        ("https://cdn.example.com:8443/brand/palette.yaml", false),  // other port
        ("http://cdn.example.com/brand/palette.yaml", false),  // other scheme
        ("https://api.example.com/brand/palette.yaml", false),
    ])
    func allowListMatchesOriginAndPathPrefix(_ text: String, _ permitted: Bool) throws {
        let allowList = try IncludeAllowList(["https://cdn.example.com/brand/", "https://assets.example.com/logo.yaml"])
        #expect(allowList.permits(try RemoteIncludeURL(text, at: Self.at)) == permitted)
    }

    @Test func anEntryWithoutTrailingSlashStillEndsAtASegment() throws {
        let allowList = try IncludeAllowList(["https://cdn.example.com/brand"])
        #expect(allowList.permits(try RemoteIncludeURL("https://cdn.example.com/brand/p.yaml", at: Self.at)))
        #expect(allowList.permits(try RemoteIncludeURL("https://cdn.example.com/brand", at: Self.at)))
        #expect(!allowList.permits(try RemoteIncludeURL("https://cdn.example.com/brand.yaml", at: Self.at)))
    }

    @Test func badAllowListEntriesAreRefusedByName() {
        #expect(
            throws: SpecError(
                .forbiddenPath, at: .start(of: "allow-list"),
                "allowed prefix 'file:///etc/' uses the scheme 'file'; only http and https URLs can be included")
        ) {
            try IncludeAllowList(["file:///etc/"])
        }
        #expect(
            throws: SpecError(
                .invalidValue, at: .start(of: "allow-list"),
                "allowed prefix 'https://cdn.example.com/?a=1' has a query; an entry is a scheme, host, port and path")
        ) {
            try IncludeAllowList(["https://cdn.example.com/?a=1"])
        }
    }

    // MARK: Resolution against fetched documents

    static let palette = "variables:\n  colors: { accent: '#0A84FF' }\n"
    static let card =
        "include: ['https://cdn.example.com/brand/palette.yaml']\nspecs:\n  card: [{ type: BackgroundColor, color: '@colors.accent' }]\n"

    static func sources(_ files: [String: String]) throws -> SpecSourceSet {
        var sources = SpecSourceSet()
        for (path, text) in files { try sources.set(path, to: Data(text.utf8)) }
        return sources
    }

    static func url(_ text: String) throws -> RemoteIncludeURL { try RemoteIncludeURL(text, at: at) }

    @Test func offByDefaultWithTheWayToEnableIt() throws {
        let errors = Spec.validate(try Self.sources(["card.yaml": Self.card]))
        #expect(
            errors.map(\.description) == [
                "card.yaml:1:11: error: remote includes are off: 'https://cdn.example.com/brand/palette.yaml' is not fetched; enable it with --allow-include https://cdn.example.com/brand/",
                "card.yaml:3:42: error: unknown variable '@colors.accent'",  // what the include would have defined
            ])
    }

    @Test func anAllowedIncludeIsMissingUntilFetchedThenResolves() throws {
        let sources = try Self.sources(["card.yaml": Self.card])
        var remote = RemoteIncludes(allowList: try IncludeAllowList(["https://cdn.example.com/brand/"]))
        let paletteURL = try Self.url("https://cdn.example.com/brand/palette.yaml")
        #expect(Spec.missingRemoteIncludes(sources, remoteIncludes: remote) == [paletteURL])
        #expect(
            Spec.validate(sources, remoteIncludes: remote).first?.description
                == "card.yaml:1:11: error: remote include 'https://cdn.example.com/brand/palette.yaml' was not fetched")
        remote.documents[paletteURL] = .document(Data(Self.palette.utf8), .yaml)
        let spec = try Spec(sources: sources, remoteIncludes: remote)
        #expect(spec.files == ["https://cdn.example.com/brand/palette.yaml", "card.yaml"])
        #expect(spec.bundleJSON.contains("#0A84FF"))
        let box = StyledBox()
        let provider = TraitsProvider()
        provider.register(box, as: "card")
        try provider.load(spec)
        #expect(box.backgroundColor == Color(hex: "#0A84FF"))
    }

    @Test func aURLOutsideTheAllowListIsRefused() throws {
        let remote = RemoteIncludes(allowList: try IncludeAllowList(["https://cdn.example.com/other/"]))
        let errors = Spec.validate(try Self.sources(["card.yaml": Self.card]), remoteIncludes: remote)
        #expect(
            errors.first?.description
                == "card.yaml:1:11: error: remote include 'https://cdn.example.com/brand/palette.yaml' is not in the allow-list (https://cdn.example.com/other/); enable it with --allow-include https://cdn.example.com/brand/"
        )
    }

    @Test func aFailedFetchIsReportedAtTheInclude() throws {
        var remote = RemoteIncludes(allowList: try IncludeAllowList(["https://cdn.example.com/brand/"]))
        remote.documents[try Self.url("https://cdn.example.com/brand/palette.yaml")] = .failed("404 Not Found")
        let errors = Spec.validate(try Self.sources(["card.yaml": Self.card]), remoteIncludes: remote)
        #expect(
            errors.first?.description
                == "card.yaml:1:11: error: cannot fetch https://cdn.example.com/brand/palette.yaml: 404 Not Found")
    }

    @Test func aRemoteDocumentsErrorsNameItsURL() throws {
        var remote = RemoteIncludes(allowList: try IncludeAllowList(["https://cdn.example.com/brand/"]))
        remote.documents[try Self.url("https://cdn.example.com/brand/palette.yaml")] =
            .document(Data("variables:\n  colors: [1\n".utf8), .yaml)
        let errors = Spec.validate(try Self.sources(["card.yaml": Self.card]), remoteIncludes: remote)
        #expect(errors.first?.location.file == "https://cdn.example.com/brand/palette.yaml")
        #expect(errors.first?.location.line == 3)
    }

    @Test func aRemoteDocumentCannotIncludeALocalFile() throws {
        var remote = RemoteIncludes(allowList: try IncludeAllowList(["https://cdn.example.com/brand/"]))
        remote.documents[try Self.url("https://cdn.example.com/brand/palette.yaml")] =
            .document(Data("include: [secret.yaml]\nspecs: {}\n".utf8), .yaml)
        let sources = try Self.sources([
            "card.yaml": "include: ['https://cdn.example.com/brand/palette.yaml']\nspecs: {}\n",
            "secret.yaml": "variables: { token: 'hunter2' }\n",
        ])
        let errors = Spec.validate(sources, roots: ["card.yaml"], remoteIncludes: remote)
        #expect(
            errors.map(\.description) == [
                "https://cdn.example.com/brand/palette.yaml:1:11: error: include 'secret.yaml' in a remote document names a local file; a remote document can include only URLs the allow-list enables"
            ])
    }

    @Test func remoteDocumentsMayIncludeAllowedURLsAndCyclesAreCaught() throws {
        let a = try Self.url("https://cdn.example.com/brand/a.yaml")
        let b = try Self.url("https://cdn.example.com/brand/b.yaml")
        var remote = RemoteIncludes(allowList: try IncludeAllowList(["https://cdn.example.com/brand/"]))
        let sources = try Self.sources(["card.yaml": "include: ['\(a)']\nspecs: {}\n"])
        remote.documents[a] = .document(Data("include: ['\(b)']\nspecs: {}\n".utf8), .yaml)
        #expect(Spec.missingRemoteIncludes(sources, remoteIncludes: remote) == [b])
        remote.documents[b] = .document(Data("include: ['\(a)']\nspecs: {}\n".utf8), .yaml)
        #expect(
            Spec.validate(sources, remoteIncludes: remote).map(\.description) == [
                "https://cdn.example.com/brand/b.yaml:1:11: error: include cycle: https://cdn.example.com/brand/a.yaml → https://cdn.example.com/brand/b.yaml → https://cdn.example.com/brand/a.yaml"
            ])
    }

    @Test func aChainOfRemoteDocumentsIsBounded() throws {
        var remote = RemoteIncludes(allowList: try IncludeAllowList(["https://cdn.example.com/"]), maxDocuments: 2)
        let sources = try Self.sources(["card.yaml": "include: ['https://cdn.example.com/0.yaml']\nspecs: {}\n"])
        for index in 0..<3 {
            remote.documents[try Self.url("https://cdn.example.com/\(index).yaml")] =
                .document(Data("include: ['https://cdn.example.com/\(index + 1).yaml']\nspecs: {}\n".utf8), .yaml)
        }
        #expect(Spec.missingRemoteIncludes(sources, remoteIncludes: remote).isEmpty)
        #expect(
            Spec.validate(sources, remoteIncludes: remote).map(\.description) == [
                "https://cdn.example.com/1.yaml:1:11: error: remote include 'https://cdn.example.com/2.yaml' is one too many: a spec may reach at most 2 remote documents"
            ])
    }
}
