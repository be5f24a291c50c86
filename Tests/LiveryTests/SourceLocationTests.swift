import Livery
import Testing

@Suite struct SpecErrorTests {
    @Test func printsLikeACompiler() {
        let error = SpecError(.invalidValue, at: SourceLocation(file: "card.yaml", line: 3, column: 14), "bad")
        #expect(error.description == "card.yaml:3:14: error: bad")
    }
}
