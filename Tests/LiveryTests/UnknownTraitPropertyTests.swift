import LiveryTesting
import PropertyBased
import Testing

/// Under ``UnknownTraitPolicy/skipIdentifier``, for random chains of specs in which random
/// identifiers use an unknown trait type, every target ends exactly as if only its identifier's
/// last fully understood list had been loaded, through the strict path, into a fresh copy.
@Suite struct UnknownTraitPropertyTests {
    private static let identifiers = ["a", "b", "c"]

    /// One identifier's entries: known traits from their seeds, and the unknown type after the
    /// first when `unknown` says so.
    private static func entries(_ seeds: [Int], unknown: Bool) -> [String] {
        var entries = seeds.map(ReversalPropertyTests.entry)
        if unknown { entries.insert("{ type: Sparkle, level: 0.5 }", at: min(1, entries.count)) }
        return entries
    }

    private static func yaml(_ lists: [String: [String]]) -> String {
        "specs:\n"
            + identifiers.compactMap { id in
                lists[id].map { "  \(id):\n" + $0.map { "    - \($0)\n" }.joined() + ($0.isEmpty ? "    []\n" : "") }
            }.joined()
    }

    @Test func skippedIdentifiersKeepTheirLastUnderstoodTraits() async {
        await propertyCheck(
            count: 100,
            input: Gen.int(in: 0...1_000_000),
            Gen.int(in: 0...1_000_000).array(of: 1...4).array(of: 3...3).array(of: 1...5),
            Gen.int(in: 0...7).array(of: 1...5)
        ) { start, specs, masks in
            let provider = TraitsProvider()
            let boxes = Self.identifiers.map { _ in ReversalPropertyTests.box(start) }
            for (box, id) in zip(boxes, Self.identifiers) { provider.register(box, as: id) }
            var lastUnderstood: [String: [String]] = [:]
            do {
                for (index, lists) in specs.enumerated() {
                    let mask = masks[index % masks.count]
                    var written: [String: [String]] = [:]
                    for (position, id) in Self.identifiers.enumerated() {
                        let unknown = mask & (1 << position) != 0
                        written[id] = Self.entries(lists[position], unknown: unknown)
                        if !unknown { lastUnderstood[id] = Self.entries(lists[position], unknown: false) }
                    }
                    let report = try provider.load(Spec(yaml: Self.yaml(written), unknownTraits: .skipIdentifier))
                    let skipped = Self.identifiers.enumerated().filter { mask & (1 << $0.offset) != 0 }.map(\.element)
                    #expect(report.skippedIdentifiers.map(\.identifier) == skipped)
                }
                for (box, id) in zip(boxes, Self.identifiers) {
                    let fresh = ReversalPropertyTests.box(start)
                    let reference = TraitsProvider()
                    reference.register(fresh, as: id)
                    try reference.load(Spec(yaml: Self.yaml([id: lastUnderstood[id] ?? []])))
                    #expect(box.snapshot == fresh.snapshot, "\(id)")
                }
                try provider.load(Spec(yaml: "specs: {}"))
                #expect(boxes.allSatisfy { $0.snapshot == ReversalPropertyTests.box(start).snapshot })
            } catch {
                Issue.record("unexpected error \(error)")
            }
        }
    }
}
