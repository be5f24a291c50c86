import Foundation
import LiveryTesting
import Testing

/// The example in `Specs/` — a themed card — read from disk the way the demo and daemon read it.
@Suite struct ExampleSpecsTests {
    static let specsFolder = URL(filePath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Specs")

    @Test func loadsAndStylesTheCard() throws {
        let spec = try Spec(directory: Self.specsFolder)
        #expect(spec.themes == ["dark"])
        #expect(
            spec.identifiers == ["screen", "text.base", "card", "card.title", "card.body", "card.button", "card.badge"])
        let provider = TraitsProvider()
        let card = StyledBox(), title = StyledBox(), badge = StyledBox()
        provider.register(card, as: "card")
        provider.register(title, as: "card.title")
        provider.register(badge, as: "card.badge")
        try provider.load(spec)
        #expect(card.backgroundColor == Color(hex: "#FFFFFF"))
        #expect(card.cornerRadius == 12)
        #expect(card.shadowColor == Color(hex: "#0000004D"))
        #expect(card.padding == Insets(top: 12, left: 16, bottom: 12, right: 16))
        #expect(title.font == Font(name: "Inter", size: 18, weight: .semibold))
        #expect(title.textColor == Color(hex: "#1C1C1E"))
        // 20 % accent, 80 % white surface.
        #expect(badge.backgroundColor == Color(hex: "#CEE6FF"))

        let report = try provider.setTheme("dark")
        #expect(card.backgroundColor == Color(hex: "#1C1C1E"))
        #expect(title.textColor == Color(hex: "#F2F2F7"))
        // Every identifier here reads a colour the dark theme overrides.
        #expect(report.changedIdentifiers == spec.identifiers)
        try provider.setTheme(nil)
        #expect(card.backgroundColor == Color(hex: "#FFFFFF"))
    }

    @Test func bundleReadsBackAsTheSameSpec() throws {
        let spec = try Spec(directory: Self.specsFolder)
        let again = try Spec(json: spec.bundleJSON)
        #expect(again.bundleJSON == spec.bundleJSON)
        #expect(again.identifiers == spec.identifiers)
        #expect(again.themes == spec.themes)
        for identifier in spec.identifiers {
            for theme in [nil, "dark"] {
                #expect(
                    again.traits(for: identifier, theme: theme).count
                        == spec.traits(for: identifier, theme: theme).count)
            }
        }
    }

    @Test func singleFileWithItsIncludes() throws {
        let spec = try Spec(file: Self.specsFolder.appendingPathComponent("card.yaml"))
        #expect(spec.files == ["palette.yaml", "card.yaml"])
    }

    @Test func foldersMergeRecursivelyAndSkipHiddenFiles() throws {
        let folder = try TemporarySpecFolder()
        try folder.write(
            "a.yaml", "variables: { c: '#010203' }\nspecs: { a: [{ type: BackgroundColor, color: '@c' }] }")
        try folder.write("sub/b.json", #"{"specs": {"b": [{"type": "Inherit", "traits": ["a"]}]}}"#)
        try folder.write(".hidden.yaml", "this is not even YAML: [")
        try folder.write("notes.txt", "ignored")
        let spec = try Spec(directory: folder.url)
        #expect(spec.files == ["a.yaml", "sub/b.json"])
        let inherited = try #require(spec.traits(for: "b").first as? BackgroundColor)
        #expect(inherited.color == Color(red: 1, green: 2, blue: 3))
    }

    @Test func symlinkedFilesAreFollowed() throws {
        let outside = try TemporarySpecFolder()
        try outside.write("shared.yaml", "specs: { shared: [{ type: Hidden, hidden: true }] }")
        let folder = try TemporarySpecFolder()
        try FileManager.default.createSymbolicLink(
            at: folder.url("shared.yaml"), withDestinationURL: outside.url("shared.yaml"))
        let spec = try Spec(directory: folder.url)
        #expect(spec.identifiers == ["shared"])
    }

    @Test func oversizedFilesAreRefusedBeforeReading() throws {
        let folder = try TemporarySpecFolder()
        try folder.write("big.yaml", String(repeating: "#", count: 2_000))
        var limits = ReaderLimits.default
        limits.maxBytes = 1_000
        let error = try #require(throws: SpecError.self) { try Spec(directory: folder.url, limits: limits) }
        #expect(error.description == "big.yaml:1:1: error: file is 2000 bytes; the limit is 1000 bytes")
    }
}
