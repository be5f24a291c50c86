import LiveryHTTP
import Testing

/// The bundle's URLs, read once for every path that serves them.
@Suite struct BundlePathTests {
    @Test func readsTheFiveShapesAndNothingElse() {
        #expect(BundlePath(path: "/v1/spec") == .current(.bundle))
        #expect(BundlePath(path: "/v1/css") == .current(.styleSheet))
        #expect(BundlePath(path: "/v1/spec/0123abcd") == .version(.bundle, tag: "0123abcd"))
        #expect(BundlePath(path: "/v1/css/0123abcd") == .version(.styleSheet, tag: "0123abcd"))
        #expect(BundlePath(path: "/v1/version") == .versionSignal)
        for other in [
            "/v1/spec/", "/v1/spec/a/b", "/v1/specs", "/v1/specs/card.yaml", "/v1/cssx", "/v1/css//", "/v1/versions",
            "/v1", "", "/v1/spec?wait=1s",
        ] {
            #expect(BundlePath(path: other) == nil, "\(other)")
        }
    }

    @Test func eachPathBelongsToOneOfThePatterns() {
        #expect(
            BundlePath.patterns == ["/v1/spec", "/v1/spec/{etag}", "/v1/css", "/v1/css/{etag}", "/v1/version"])
        for path in ["/v1/spec", "/v1/css", "/v1/spec/x", "/v1/css/y", "/v1/version"] {
            #expect(BundlePath(path: path).map { BundlePath.patterns.contains($0.pattern) } == true, "\(path)")
        }
    }

    @Test func theReadRoutesOfCrossOriginIncludeEveryBundlePath() {
        for path in ["/v1/spec", "/v1/css", "/v1/spec/x", "/v1/css/y", "/v1/version"] {
            #expect(CrossOriginPolicy.isReadRoute(method: "GET", path: path), "\(path)")
        }
        #expect(!CrossOriginPolicy.isReadRoute(method: "GET", path: "/v1/spec/a/b"))
        #expect(!CrossOriginPolicy.isReadRoute(method: "GET", path: "/v1/specs/card.yaml"))
    }
}
