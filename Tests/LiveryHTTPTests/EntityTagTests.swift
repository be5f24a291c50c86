import Foundation
@_spi(LiveryInternal) import LiveryHTTP
import Testing

/// Content tags and the `If-Match` / `If-None-Match` lists.
@Suite struct EntityTagTests {
    @Test func theTagIsTheFNV1aHashOfTheBytes() {
        // Reference values of 64-bit FNV-1a.
        #expect(EntityTag(of: Data()).description == #""cbf29ce484222325""#)
        #expect(EntityTag(of: Data("a".utf8)).description == #""af63dc4c8601ec8c""#)
        #expect(EntityTag(of: Data("foobar".utf8)).opaque == "85944171f73967e8")
    }

    @Test(arguments: [
        (["*"], EntityTagCondition.any),
        ([#""a", W/"b""#], .tags([.init(opaque: "a", weak: false), .init(opaque: "b", weak: true)])),
        ([#""a""#, #" "b" "#], .tags([.init(opaque: "a", weak: false), .init(opaque: "b", weak: false)])),
        ([#"a, "b""#], .tags([.init(opaque: "b", weak: false)])),
        ([#""a", *"#], .any),
    ])
    func parsesHeaderLists(lines: [String], expected: EntityTagCondition) {
        #expect(EntityTagCondition(headerValues: lines) == expected)
    }

    @Test func noHeaderIsNoCondition() {
        #expect(EntityTagCondition(headerValues: []) == nil)
    }

    @Test func ifNoneMatchComparesWeaklyAndIfMatchStrongly() throws {
        let tag = EntityTag(opaque: "abc")
        let weak = try #require(EntityTagCondition(headerValues: [#"W/"abc""#]))
        #expect(weak.matchesWeakly(tag))
        #expect(!weak.matchesStrongly(tag))
        #expect(EntityTagCondition.any.matchesStrongly(tag))
        #expect(!EntityTagCondition.any.matchesStrongly(nil), "If-Match: * fails on a missing file")
    }

    @Test(arguments: [#""abc""#, "abc", #"W/"abc""#, #" "abc" "#])
    func lastEventIDNamesATagWithOrWithoutQuotes(text: String) {
        #expect(EntityTag(opaque: "abc").isNamed(by: text))
        #expect(!EntityTag(opaque: "abd").isNamed(by: text))
    }
}
