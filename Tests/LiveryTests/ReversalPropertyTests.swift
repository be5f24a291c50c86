import LiveryTesting
import PropertyBased
import Testing

/// For random starting states and random sequences of built-in traits, several of them on the
/// same property, applying and then reverting restores the state exactly.
@Suite struct ReversalPropertyTests {
    /// A random trait entry, written as YAML, chosen and filled from one number so that
    /// shrinking works on plain integers.
    static func entry(_ seed: Int) -> String {
        let value = seed / 16
        let colour = "\"#\(hex(value & 0xFF))\(hex((value >> 8) & 0xFF))\(hex((value >> 3) & 0xFF))\""
        let number = Double(value % 400) / 4
        let unit = Double(value % 101) / 100
        switch seed % 16 {
        case 0: return "{ type: BackgroundColor, color: \(colour) }"
        case 1: return "{ type: CornerRadius, radius: \(number) }"
        case 2:
            return
                "{ type: DropShadow, color: \(colour), offset: [\(number), -\(number)], opacity: \(unit), radius: \(number) }"
        case 3: return "{ type: DropShadow, opacity: \(unit) }"
        case 4:
            return
                "{ type: Font, name: F\(value % 7), size: \(number + 1), weight: \(FontWeight.allCases[value % 9].rawValue), color: \(colour) }"
        case 5: return "{ type: Font, size: \(number + 1) }"
        case 6: return "{ type: Constraint, constant: \(number - 50) }"
        case 7: return "{ type: Border, color: \(colour), width: \(number) }"
        case 8: return "{ type: Border, width: \(number) }"
        case 9: return "{ type: Opacity, opacity: \(unit) }"
        case 10: return "{ type: Hidden, hidden: \(value % 2 == 0) }"
        case 11: return "{ type: Padding, insets: \(number) }"
        case 12: return "{ type: Padding, insets: { top: 1, left: \(number), bottom: 2, right: \(number) } }"
        case 13: return "{ type: TextColor, color: \(colour) }"
        case 14: return "{ type: Set, values: { retries: \(value % 10), timeout: \(number) } }"
        default: return "{ type: Set, values: { label: l\(value % 5) } }"
        }
    }

    static func hex(_ byte: Int) -> String {
        let digits = String(byte, radix: 16, uppercase: true)
        return digits.count == 1 ? "0" + digits : digits
    }

    /// A box in a random state, so that reversals cannot pass by resetting to defaults.
    static func box(_ seed: Int) -> StyledBox {
        let box = StyledBox()
        box.backgroundColor = Color(red: UInt8(seed & 0xFF), green: UInt8((seed >> 8) & 0xFF), blue: 7, alpha: 200)
        box.cornerRadius = Double(seed % 97)
        box.shadowOffset = Size(width: Double(seed % 13), height: -3)
        box.shadowOpacity = Double(seed % 11) / 10
        box.font = Font(name: "Start\(seed % 3)", size: Double(seed % 40 + 1), weight: .light)
        box.textColor = Color(red: 1, green: 2, blue: UInt8(seed % 256))
        box.constant = Double(seed % 1000) - 500
        box.borderWidth = Double(seed % 5)
        box.opacity = Double(seed % 10) / 10
        box.isHidden = seed % 2 == 1
        box.padding = Insets(top: 3, left: Double(seed % 9), bottom: 4, right: 5)
        box.retries = seed % 17
        box.timeout = Double(seed % 60)
        box.label = "start"
        return box
    }

    @Test func applyThenRevertRestoresAnyState() async {
        await propertyCheck(
            count: 300,
            input: Gen.int(in: 0...1_000_000), Gen.int(in: 0...1_000_000).array(of: 0...12)
        ) { start, seeds in
            let box = Self.box(start)
            let original = box.snapshot
            let provider = TraitsProvider()
            provider.register(box, as: "box")
            let yaml = "specs:\n  box:\n" + seeds.map { "    - " + Self.entry($0) + "\n" }.joined()
            do {
                try provider.load(Spec(yaml: yaml))
                try provider.load(Spec(yaml: "specs: {}"))
            } catch {
                Issue.record("unexpected error \(error) for\n\(yaml)")
            }
            #expect(box.snapshot == original, "\(yaml)")
        }
    }

    @Test func switchingBetweenRandomSpecsNeverDrifts() async {
        // A chain of loads, each replacing the last: the end state must equal a fresh box with
        // only the final spec applied.
        await propertyCheck(
            count: 100,
            input: Gen.int(in: 0...1_000_000), Gen.int(in: 0...1_000_000).array(of: 1...6).array(of: 1...5)
        ) { start, specs in
            let box = Self.box(start)
            let fresh = Self.box(start)
            let provider = TraitsProvider()
            let reference = TraitsProvider()
            provider.register(box, as: "box")
            reference.register(fresh, as: "box")
            do {
                for seeds in specs {
                    try provider.load(
                        Spec(yaml: "specs:\n  box:\n" + seeds.map { "    - " + Self.entry($0) + "\n" }.joined()))
                }
                let last = specs.last ?? []
                try reference.load(
                    Spec(yaml: "specs:\n  box:\n" + last.map { "    - " + Self.entry($0) + "\n" }.joined()))
            } catch {
                Issue.record("unexpected error \(error)")
            }
            #expect(box.snapshot == fresh.snapshot)
        }
    }

    @Test func conformanceKitChecksBuiltInsDirectly() throws {
        let box = Self.box(42)
        try TraitConformance.checkReversal(
            of: [CornerRadius(radius: 1), CornerRadius(radius: 2), CornerRadius(radius: 3)], on: box,
            state: { $0.cornerRadius })
        try TraitConformance.checkReversal(
            of: [
                DropShadow(opacity: 0.1), DropShadow(color: .white, radius: 3),
                DropShadow(offset: Size(width: 1, height: 1)),
            ],
            on: box, state: { ($0 as? StyledBox)?.snapshot })
    }
}
