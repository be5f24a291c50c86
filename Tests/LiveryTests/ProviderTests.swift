import LiveryTesting
import Testing

/// One test (at least) per guarantee of docs/ARCHITECTURE.md, "What the engine guarantees".
@Suite struct ProviderTests {
    private func spec(_ yaml: String) throws -> Spec { try Spec(yaml: yaml, source: "test.yaml") }

    // 1. Exact reversal, 2. newest first.
    @Test func twoTraitsOnOnePropertyRevertToTheOriginal() throws {
        let provider = TraitsProvider()
        let box = StyledBox()
        box.cornerRadius = 3
        provider.register(box, as: "box")
        try provider.load(
            spec(
                """
                specs:
                  box:
                    - { type: CornerRadius, radius: 8 }
                    - { type: CornerRadius, radius: 12 }
                    - { type: Font, size: 20 }
                    - { type: Font, name: Inter, weight: bold }
                """))
        #expect(box.cornerRadius == 12)
        #expect(box.font == Font(name: "Inter", size: 20, weight: .bold))
        try provider.load(spec("specs: {}"))
        #expect(box.cornerRadius == 3)
        #expect(box.font == Font(name: "System", size: 17, weight: .regular))
    }

    @Test func missingOptionalFieldsLeaveThePropertyAlone() throws {
        let provider = TraitsProvider()
        let box = StyledBox()
        box.shadowRadius = 9
        box.clearChanges()
        provider.register(box, as: "box")
        try provider.load(spec("specs: { box: [{ type: DropShadow, opacity: 0.4 }] }"))
        #expect(box.shadowOpacity == 0.4)
        #expect(box.shadowRadius == 9)
        #expect(box.changes == ["shadowOpacity"])
    }

    // 3. All or nothing.
    @Test func thirdOfFiveIdentifiersFailingLeavesEverythingAsBefore() throws {
        let provider = TraitsProvider()
        let boxes = (0..<5).map { _ in StyledBox() }
        let plain = PlainObject()
        for (index, box) in boxes.enumerated() { provider.register(box, as: "id\(index)") }
        try provider.load(
            spec(
                """
                specs:
                  id0: [{ type: CornerRadius, radius: 1 }]
                  id1: [{ type: CornerRadius, radius: 1 }]
                  id2: [{ type: CornerRadius, radius: 1 }]
                  id3: [{ type: CornerRadius, radius: 1 }]
                  id4: [{ type: CornerRadius, radius: 1 }]
                """))
        let before = boxes.map(\.snapshot)
        let good = provider.spec
        provider.register(plain, as: "id2")  // a second target under id2 that cannot take Opacity
        let failing = try spec(
            """
            specs:
              id0: [{ type: CornerRadius, radius: 5 }, { type: Opacity, opacity: 0.5 }]
              id1: [{ type: CornerRadius, radius: 5 }, { type: Opacity, opacity: 0.5 }]
              id2: [{ type: CornerRadius, radius: 5 }, { type: Opacity, opacity: 0.5 }]
              id3: [{ type: CornerRadius, radius: 5 }, { type: Opacity, opacity: 0.5 }]
              id4: [{ type: CornerRadius, radius: 5 }, { type: Opacity, opacity: 0.5 }]
            """)
        #expect(throws: SpecError.self) { try provider.load(failing) }
        #expect(boxes.map(\.snapshot) == before)
        #expect(provider.spec?.bundleJSON == good?.bundleJSON)
    }

    @Test func aTraitThrowingMidwayRollsBackTargetsAlreadyRestyled() throws {
        let provider = TraitsProvider()
        let boxes = (0..<5).map { _ in StyledBox() }
        for (index, box) in boxes.enumerated() { provider.register(box, as: "id\(index)") }
        try provider.load(
            spec(
                """
                specs:
                  id0: [{ type: Set, values: { retries: 1 } }]
                  id1: [{ type: Set, values: { retries: 1 } }]
                  id2: [{ type: Set, values: { retries: 1 } }]
                  id3: [{ type: Set, values: { retries: 1 } }]
                  id4: [{ type: Set, values: { retries: 1 } }]
                """))
        let before = boxes.map(\.snapshot)
        // `Set` learns a value's type only when it meets the target, so this fails while applying,
        // after other targets may already have been restyled.
        let error = try #require(throws: SpecError.self) {
            try provider.load(
                spec(
                    """
                    specs:
                      id0: [{ type: Set, values: { retries: 2, label: x } }]
                      id1: [{ type: Set, values: { retries: 2, label: x } }]
                      id2: [{ type: Set, values: { retries: 2, label: 7 } }]
                      id3: [{ type: Set, values: { retries: 2, label: x } }]
                      id4: [{ type: Set, values: { retries: 2, label: x } }]
                    """))
        }
        #expect(
            error.description == "test.yaml:4:51: error: 'label' of StyledBox: expected a string, found the number 7")
        #expect(boxes.map(\.snapshot) == before)
        #expect(boxes.allSatisfy { $0.retries == 1 })
    }

    // 4. Last known good.
    @Test func aSpecThatDoesNotParseLeavesThePreviousTraitsApplied() throws {
        let provider = TraitsProvider()
        let box = StyledBox()
        provider.register(box, as: "box")
        try provider.load(spec("specs: { box: [{ type: BackgroundColor, color: '#112233' }] }"))
        #expect(throws: SpecError.self) {
            try provider.load(spec("specs: { box: [{ type: BackgroundColor, color: '#11223' }] }"))
        }
        #expect(box.backgroundColor == Color(hex: "#112233"))
        #expect(provider.spec?.identifiers == ["box"])
    }

    // 5. Minimal work.
    @Test func onlyChangedIdentifiersAreRevertedAndReapplied() throws {
        let provider = TraitsProvider()
        let same = StyledBox()
        let changed = StyledBox()
        provider.register(same, as: "same")
        provider.register(changed, as: "changed")
        try provider.load(
            spec(
                """
                variables: { r: 4 }
                specs:
                  same: [{ type: CornerRadius, radius: 4 }]
                  changed: [{ type: CornerRadius, radius: "@r" }]
                """))
        same.clearChanges()
        changed.clearChanges()
        let report = try provider.load(
            spec(
                """
                # moved lines and a variable that resolves to the same value: not a change
                variables: { r: 5, four: 4 }


                specs:
                  changed: [{ type: CornerRadius, radius: "@r" }]
                  same: [{ type: CornerRadius, radius: "@four" }]
                """))
        #expect(report.changedIdentifiers == ["changed"])
        #expect(report.targetsTouched == 1)
        #expect(report.traitsReverted == 1)
        #expect(report.traitsApplied == 1)
        #expect(same.changes.isEmpty)
        // New values for the same traits are set in place: one write, not a revert and an apply.
        #expect(changed.changes == ["cornerRadius"])
    }

    /// Traits that leave fields out, and a `Set` whose `Double` the spec writes as an integer,
    /// are set in place too: one write per property they set, none to the ones they leave alone.
    @Test func newValuesForTraitsWithFieldsLeftOutAreSetInPlace() throws {
        let provider = TraitsProvider()
        let box = StyledBox()
        provider.register(box, as: "card")
        try provider.load(
            spec(
                "specs: { card: [{ type: DropShadow, radius: 2 }, { type: Set, values: { timeout: 1, retries: 4 } }] }")
        )
        box.clearChanges()
        let report = try provider.load(
            spec(
                "specs: { card: [{ type: DropShadow, radius: 3 }, { type: Set, values: { timeout: 2, retries: 5 } }] }")
        )
        #expect(report.traitsReverted == 2)
        #expect(report.traitsApplied == 2)
        #expect(box.changes == ["shadowRadius", "timeout", "retries"])
        #expect(box.shadowRadius == 3 && box.timeout == 2 && box.retries == 5)
        try provider.load(spec("specs: {}"))
        #expect(box.snapshot == StyledBox().snapshot)
    }

    @Test func registeringAppliesAtOnceAndUnregisteringReverts() throws {
        let provider = TraitsProvider()
        try provider.load(spec("specs: { a: [{ type: Opacity, opacity: 0.5 }], b: [{ type: Hidden, hidden: true }] }"))
        let box = StyledBox()
        provider.register(box, as: "a")
        #expect(box.opacity == 0.5)
        provider.register(box, as: "b")  // another identifier: revert a's traits first
        #expect(box.opacity == 1)
        #expect(box.isHidden)
        #expect(provider.identifier(of: box) == "b")
        provider.unregister(box)
        #expect(!box.isHidden)
        #expect(provider.identifier(of: box) == nil)
    }

    @Test func registeringATargetThatLacksACapabilityLeavesItUntouched() throws {
        let provider = TraitsProvider()
        try provider.load(spec("specs: { a: [{ type: Opacity, opacity: 0.5 }] }"))
        let plain = PlainObject()
        let error = provider.register(plain, as: "a")
        #expect(
            error?.description
                == "test.yaml:1:14: error: trait Opacity cannot apply to 'a': PlainObject is not HasOpacity")
    }

    @Test func targetsAreHeldWeaklyAndDeadOnesAreSkipped() throws {
        let provider = TraitsProvider()
        weak var weakBox: StyledBox?
        do {
            let box = StyledBox()
            weakBox = box
            provider.register(box, as: "box")
            try provider.load(spec("specs: { box: [{ type: CornerRadius, radius: 2 }] }"))
            #expect(provider.targetCount == 1)
        }
        #expect(weakBox == nil)
        #expect(provider.targetCount == 0)
        let report = try provider.load(spec("specs: { box: [{ type: CornerRadius, radius: 3 }] }"))
        #expect(report.targetsTouched == 0)
    }

    @Test func inheritWorksThroughTheProvider() throws {
        let provider = TraitsProvider()
        let title = StyledBox()
        provider.register(title, as: "title")
        try provider.load(
            spec(
                """
                specs:
                  base: [{ type: Font, name: Inter, size: 15, color: "#111111" }]
                  title:
                    - { type: Inherit, traits: [base] }
                    - { type: Font, size: 18, weight: semibold }
                """))
        #expect(title.font == Font(name: "Inter", size: 18, weight: .semibold))
        #expect(title.textColor == Color(hex: "#111111"))
        // Changing only the inherited identifier restyles the heir.
        let report = try provider.load(
            spec(
                """
                specs:
                  base: [{ type: Font, name: Inter, size: 15, color: "#222222" }]
                  title:
                    - { type: Inherit, traits: [base] }
                    - { type: Font, size: 18, weight: semibold }
                """))
        #expect(report.changedIdentifiers == ["base", "title"])
        #expect(title.textColor == Color(hex: "#222222"))
    }

    @Test func themesSwitchAtomicallyAndFallBackWhenRemoved() throws {
        let provider = TraitsProvider()
        let box = StyledBox()
        provider.register(box, as: "box")
        let themed = try spec(
            """
            variables: { bg: "#FFFFFF" }
            themes: { dark: { bg: "#000000" } }
            specs: { box: [{ type: BackgroundColor, color: "@bg" }] }
            """)
        try provider.load(themed)
        try provider.setTheme("dark")
        #expect(provider.theme == "dark")
        #expect(box.backgroundColor == .black)
        #expect(throws: SpecError.self) { try provider.setTheme("drak") }
        #expect(provider.theme == "dark")
        try provider.setTheme(nil)
        #expect(box.backgroundColor == .white)
        try provider.setTheme("dark")
        try provider.load(
            spec("variables: { bg: '#FF0000' }\nspecs: { box: [{ type: BackgroundColor, color: '@bg' }] }"))
        #expect(provider.theme == nil)
        #expect(box.backgroundColor == Color(hex: "#FF0000"))
    }

    @Test func unknownThemeNamesTheKnownOnes() throws {
        let provider = TraitsProvider()
        try provider.load(spec("variables: { a: 1 }\nthemes: { dark: { a: 2 }, light: { a: 3 } }\nspecs: {}"))
        let line = #line + 1
        let error = try #require(throws: SpecError.self) { try provider.setTheme("drak") }
        // The place is the line that asked for the theme.
        #expect(error.location.file == #filePath)
        #expect(error.location.line == line)
        #expect(error.message == "unknown theme 'drak'; did you mean 'dark'?")
        let other = try #require(throws: SpecError.self) {
            try provider.setTheme("sepia", file: "app.yaml", line: 4, column: 8)
        }
        #expect(other.description == "app.yaml:4:8: error: unknown theme 'sepia'; expected 'dark', 'light'")
    }

    @Test func observersHearEveryLoad() throws {
        let provider = TraitsProvider()
        var reports: [LoadReport] = []
        let token = provider.addObserver { reports.append($0) }
        try provider.load(spec("specs: { a: [] }"))
        try provider.load(spec("specs: { a: [{ type: Hidden, hidden: true }] }"))
        provider.removeObserver(token)
        try provider.load(spec("specs: {}"))
        #expect(reports.map(\.changedIdentifiers) == [["a"], ["a"]])
    }

    enum Identifier: String { case cardTitle = "card.title" }

    @Test func typedIdentifiersRegisterLikeStrings() throws {
        let provider = TraitsProvider()
        let title = StyledBox()
        provider.register(title, as: Identifier.cardTitle)
        try provider.load(spec("specs: { card.title: [{ type: Hidden, hidden: true }] }"))
        #expect(title.isHidden)
        #expect(provider.identifier(of: title) == "card.title")
    }

    @Test func setTuneAnyTweakablePropertyWithItsOwnType() throws {
        let provider = TraitsProvider()
        let box = StyledBox()
        provider.register(box, as: "http")
        try provider.load(spec("specs: { http: [{ type: Set, values: { retries: 5, timeout: 2.5, label: fast } }] }"))
        #expect(box.retries == 5)
        #expect(box.timeout == 2.5)
        #expect(box.label == "fast")
        try provider.load(spec("specs: { http: [] }"))
        #expect(box.snapshot == StyledBox().snapshot)
    }
}
