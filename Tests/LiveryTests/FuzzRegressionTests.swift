import Foundation
import Livery
import LiveryTesting
import Testing

/// Inputs that crashed, hung or exhausted memory under the fuzz targets of `Fuzz/` (or the
/// probes written while running them), each with the error it must produce instead.
///
/// The two long cases crashed (stack overflow) and hung (2^40 traits) until resolution got its
/// limits; ResolutionLimitsTests checks the exact messages.
@Suite struct FuzzRegressionTests {
    /// `variables: { v0: "@v1", v1: "@v2", …, vN: "#FFFFFF" }` with `card` using `@v0`.
    static func referenceChain(_ length: Int) -> String {
        var yaml = "variables:\n"
        for index in 0..<length { yaml += "  v\(index): \"@v\(index + 1)\"\n" }
        yaml += "  v\(length): \"#FFFFFF\"\nspecs:\n  card: [{ type: BackgroundColor, color: \"@v0\" }]\n"
        return yaml
    }

    /// `s0` has one trait; each `s(i+1)` inherits `s(i)` twice, so `sN` flattens to 2^N traits.
    static func inheritFanOut(_ levels: Int) -> String {
        var yaml = "specs:\n  s0: [{ type: CornerRadius, radius: 1 }]\n"
        for index in 0..<levels { yaml += "  s\(index + 1): [{ type: Inherit, traits: [s\(index), s\(index)] }]\n" }
        return yaml
    }

    @Test func aReferenceChainWithinTheLimitsResolves() throws {
        let spec = try Spec(yaml: Self.referenceChain(60), source: "chain.yaml")  // the limit is 64 links
        let provider = TraitsProvider()
        let box = StyledBox()
        box.backgroundColor = .black
        provider.register(box, as: "card")
        try provider.load(spec)
        #expect(box.backgroundColor == Color(red: 255, green: 255, blue: 255))
    }

    /// A 5,000-variable reference chain (a 120 KB file, far under the 4 MiB limit) overflows
    /// the stack: `VariableScope.value(of:at:)` and `substitute(_:)` recurse once per link
    /// with no bound (Sources/Livery/Spec/Resolution/VariableScope.swift:48-60), and
    /// `resolving.firstIndex(of:)` makes the chain quadratic too (4,000 links: 7.6 s under
    /// ASan). Found by a probe written during the fuzz run: ASan stack-overflow at 4,000 links.
    @Test
    func aLongReferenceChainIsALimitErrorNotAStackOverflow() throws {
        let error = try #require(throws: SpecError.self) {
            try Spec(yaml: Self.referenceChain(5_000), source: "chain.yaml")
        }
        #expect(error.code == .limitExceeded)
        #expect(error.location.file == "chain.yaml")
    }

    @Test func inheritFanOutWithinTheLimitsFlattens() throws {
        let spec = try Spec(yaml: Self.inheritFanOut(10), source: "inherit.yaml")
        #expect(spec.traits(for: "s10").count == 1_024)
    }

    /// 40 levels of `Inherit: [s(i), s(i)]` (1.6 KB) flatten to 2^40 traits:
    /// `SpecResolver.flatten(_:stack:)` memoises each identifier's list but still builds every
    /// list in full, with no bound on its length (Sources/Livery/Spec/Resolution/SpecResolver.swift:81-107).
    /// 20 levels already take 30 s and 1 GB under ASan; 40 never finish. A pushed spec like
    /// this hangs `livery serve` and every client that loads the bundle.
    @Test
    func inheritFanOutIsALimitErrorNotAHang() throws {
        let error = try #require(throws: SpecError.self) {
            try Spec(yaml: Self.inheritFanOut(40), source: "inherit.yaml")
        }
        #expect(error.code == .limitExceeded)
        #expect(error.location.file == "inherit.yaml")
    }

    /// A variable that does not resolve (a spec may hold one no trait uses) is named in a comment
    /// at the top of the stylesheet, with the error's text, which quotes the reference as written:
    /// `</style>` in it ended the `<style>` element a page inlined the stylesheet in, and what
    /// followed ran as HTML. Every other text of a stylesheet escapes `<` (`CSSText`). Found by
    /// FuzzStyleSheet's check that no `<` appears in a stylesheet.
    @Test func aNoteInAStyleSheetCannotEndAStyleElement() throws {
        let spec = try Spec(
            yaml: "variables:\n  a: \"@b</style><script>\"\nspecs:\n  card: [{ type: Opacity, opacity: 0.5 }]\n",
            source: "note.yaml")
        let text = try spec.styleSheet().text
        #expect(!text.contains("<"))
        #expect(text.hasPrefix(#"/* variables not written: unknown variable '@b\3c /style>\3c script>'"#))
    }
}
