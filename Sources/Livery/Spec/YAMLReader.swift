enum YAMLReader {
    static func read(_ text: SpecText, limits: ReaderLimits) throws(SpecError) -> SpecNode {
        throw SpecError(.syntax, at: .start(of: text.source), "todo")
    }
}
