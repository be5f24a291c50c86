import Livery
import Testing

/// Bounds on resolution, so that a small spec file cannot overflow the stack or ask for an
/// exponential amount of work (both found by fuzzing; see also FuzzRegressionTests).
@Suite struct ResolutionLimitsTests {
    static func referenceChain(_ length: Int) -> String {
        var yaml = "variables:\n"
        for index in 0..<length { yaml += "  v\(index): \"@v\(index + 1)\"\n" }
        return yaml + "  v\(length): \"#FFFFFF\"\nspecs:\n  card: [{ type: BackgroundColor, color: \"@v0\" }]\n"
    }

    /// `s(N)` inherits `s(N-1)` … inherits `s0`, written top-down so that flattening `s(N)`
    /// first has to go all the way down (bottom-up, memoisation keeps every step shallow).
    static func inheritChain(_ length: Int) -> String {
        var yaml = "specs:\n"
        for index in stride(from: length, to: 0, by: -1) {
            yaml += "  s\(index): [{ type: Inherit, traits: [s\(index - 1)] }]\n"
        }
        return yaml + "  s0: [{ type: CornerRadius, radius: 1 }]\n"
    }

    static func inheritFanOut(_ levels: Int) -> String {
        var yaml = "specs:\n  s0: [{ type: CornerRadius, radius: 1 }]\n"
        for index in 0..<levels { yaml += "  s\(index + 1): [{ type: Inherit, traits: [s\(index), s\(index)] }]\n" }
        return yaml
    }

    @Test func aReferenceChainAtTheLimitResolves() throws {
        let spec = try Spec(yaml: Self.referenceChain(63), source: "chain.yaml")
        #expect(spec.traits(for: "card").count == 1)
    }

    @Test func aLongerReferenceChainIsALimitError() throws {
        let error = try #require(throws: SpecError.self) {
            try Spec(yaml: Self.referenceChain(5_000), source: "chain.yaml")
        }
        #expect(
            error.description
                == "chain.yaml:65:8: error: references lead through more than 64 variables (@v0 → @v1 → … → @v64); the limit is 64"
        )
    }

    @Test func anInheritChainAtTheLimitFlattens() throws {
        let spec = try Spec(yaml: Self.inheritChain(63), source: "inherit.yaml")
        #expect(spec.traits(for: "s63").count == 1)
    }

    @Test func aLongerInheritChainIsALimitError() throws {
        var thrown: SpecError?
        do { _ = try Spec(yaml: Self.inheritChain(5_000), source: "inherit.yaml") } catch {
            thrown = error as? SpecError
        }
        let error = try #require(thrown)
        #expect(
            error.description
                == "inherit.yaml:65:11: error: Inherit nests more than 64 identifiers deep (s5000 → … → s4936); the limit is 64"
        )
    }

    @Test func inheritFanOutIsBounded() throws {
        #expect(try Spec(yaml: Self.inheritFanOut(12), source: "inherit.yaml").traits(for: "s12").count == 4_096)
        let error = try #require(throws: SpecError.self) {
            try Spec(yaml: Self.inheritFanOut(40), source: "inherit.yaml")
        }
        #expect(
            error.description
                == "inherit.yaml:15:3: error: 's13' flattens to more than 4096 traits through Inherit; the limit is 4096"
        )
    }
}
