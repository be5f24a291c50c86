import Foundation
import Livery
import Testing

@testable import LiveryRemote

@Suite struct UpdateGateTests {
    private func gate() -> UpdateGate { UpdateGate(registry: .standard, limits: .default) }

    private func body(_ radius: Int) -> Data { Data(bundle(radius: radius).utf8) }

    @Test("the same ETag or the same bytes are not published twice in a row")
    func deduplicates() {
        var gate = gate()
        #expect(
            gate.consider(body(1), etag: "\"a\"", lastModified: nil, format: .json, source: "u", endpoint: nil)?.spec
                != nil)
        #expect(
            gate.consider(body(2), etag: "\"a\"", lastModified: nil, format: .json, source: "u", endpoint: nil) == nil)
        #expect(
            gate.consider(body(1), etag: "\"b\"", lastModified: nil, format: .json, source: "u", endpoint: nil) == nil)
        #expect(gate.consider(body(1), etag: nil, lastModified: nil, format: .json, source: "u", endpoint: nil) == nil)
        #expect(
            gate.consider(body(2), etag: nil, lastModified: nil, format: .json, source: "u", endpoint: nil)?.spec != nil
        )
    }

    @Test("a bad body is reported once; the good one coming back is published again")
    func badThenGood() {
        var gate = gate()
        let bad = Data("{".utf8)
        #expect(
            gate.consider(body(1), etag: nil, lastModified: nil, format: .json, source: "u", endpoint: nil)?.spec != nil
        )
        #expect(
            gate.consider(bad, etag: nil, lastModified: nil, format: .json, source: "u", endpoint: nil)?.error
                is SpecError)
        #expect(gate.consider(bad, etag: nil, lastModified: nil, format: .json, source: "u", endpoint: nil) == nil)
        #expect(
            gate.consider(body(1), etag: nil, lastModified: nil, format: .json, source: "u", endpoint: nil)?.spec != nil
        )
    }

    @Test(
        "the syntax comes from the Content-Type, else the extension, else JSON",
        arguments: [
            ("application/json", "x.yaml", SpecFormat.json),
            ("application/yaml; charset=utf-8", "x.json", .yaml),
            ("text/x-yaml", "x", .yaml),
            ("application/problem+json", "x", .json),
            ("application/octet-stream", "x.yml", .yaml),
            ("text/plain", "x.YAML", .yaml),
            ("text/plain", "bundle", .json),
        ])
    func format(contentType: String, path: String, expected: SpecFormat) throws {
        let url = try #require(URL(string: "http://h/\(path)"))
        #expect(UpdateGate.format(contentType: contentType, url: url) == expected)
    }

    @Test("digests tell same-size edits apart and are stable")
    func digests() {
        #expect(BodyDigest(body(1)) != BodyDigest(body(2)))
        #expect(BodyDigest(body(1)) == BodyDigest(body(1)))
        #expect(BodyDigest([UInt8]()).description.count == 32)
        // Its first half is FNV-1a 64: the reference value of "foobar".
        #expect(BodyDigest(Array("foobar".utf8)).description.hasPrefix("85944171f73967e8"))
    }
}
