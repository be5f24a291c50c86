import Foundation
import LiveryTesting

/// Files that parse but are hostile or wrong in shape: limits, duplicates, includes, odd keys.
extension BadInput {
    static let structureCases: [BadInput] = [
        // Size and shape limits (ReaderLimits: 4 MiB, 256 levels, 1,000,000 nodes).
        BadInput(
            "50 MB file", "huge.yaml", bytes: { fiftyMegabytes }, (1, 1), "limitExceeded",
            "file is 52428800 bytes; the limit is 4194304 bytes", push: .tooLarge),
        BadInput(
            "JSON nested 10,000 deep", "bad.json",
            #"{"specs": {"badge": "# + String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
                + "}}",
            (1, 275), "limitExceeded", "document nests deeper than 256 levels (the depth limit)"),
        BadInput(
            "YAML flow lists nested 10,000 deep", "bad.yaml",
            "specs:\n  badge: " + String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000) + "\n",
            (2, 264), "limitExceeded", "document nests deeper than 256 levels (the depth limit)"),
        BadInput(
            "YAML block lists nested 10,000 deep", "bad.yaml",
            "specs:\n  badge:\n    " + String(repeating: "- ", count: 10_000) + "x\n",
            (3, 513), "limitExceeded", "document nests deeper than 256 levels (the depth limit)"),
        BadInput(
            "YAML mappings nested 10,000 deep", "bad.yaml",
            "specs:\n  badge: " + String(repeating: "{a: ", count: 10_000) + "1" + String(repeating: "}", count: 10_000)
                + "\n",
            (2, 1026), "limitExceeded", "document nests deeper than 256 levels (the depth limit)"),
        BadInput(
            "YAML alias bomb (billion laughs)", "bad.yaml", aliasBomb, (6, 36), "limitExceeded",
            "document expands to more than 1000000 nodes (the node limit; a YAML alias bomb?)"),
        // Keys: duplicates, control characters, absurd lengths.
        BadInput(
            "duplicate key in JSON", "bad.json", #"{"specs": {"badge": []}, "specs": {}}"#, (1, 26), "duplicateKey",
            "duplicate key 'specs' (first at bad.json:1:2)"),
        BadInput(
            "duplicate key in YAML", "bad.yaml", "specs:\n  badge: []\n  badge: []\n", (3, 3), "duplicateKey",
            "duplicate key 'badge' (first at bad.yaml:2:3)"),
        BadInput(
            "identifier already defined in another file", "new.yaml", "specs:\n  card: []\n", (2, 3),
            "duplicateDefinition", "duplicate identifier 'card' (first defined at card.yaml:3:3)"),
        BadInput(
            "control character in a JSON key", "bad.json", #"{"spe\u0007cs": {}}"#, (1, 2), "unknownKey",
            "unknown top-level key 'spe\\u{7}cs'; did you mean 'specs'?"),
        BadInput(
            "escape character in a YAML key", "bad.yaml",
            "specs:\n  badge:\n    - { type: CornerRadius, \"rad\\x1bius\": 1 }\n", (3, 29), "unknownKey",
            "unknown key 'rad\\u{1B}ius' in trait CornerRadius; did you mean 'radius'?"),
        BadInput(
            "raw control character in a JSON string", "bad.json",
            raw: Array(#"{"specs": {"badge"#.utf8) + [0x01] + Array(#"": []}}"#.utf8),
            (1, 18), "syntax", "control character U+0001 must be escaped in a string"),
        BadInput(
            "100,000-character JSON key", "bad.json",
            #"{""# + String(repeating: "k", count: 100_000) + #"": 1, "specs": {}}"#,
            (1, 2), "unknownKey",
            "unknown top-level key '" + String(repeating: "k", count: 59) + "…[99931 characters elided]…"
                + String(repeating: "k", count: 10) + "'; expected 'specs', 'variables', 'themes' or 'include'"),
        BadInput(
            "100,000-character YAML key", "bad.yaml", String(repeating: "k", count: 100_000) + ": 1\nspecs: {}\n",
            (1, 100_001), "syntax",
            "invalid YAML: mapping values are not allowed in this context (if this is meant as a key: plain keys are at most 1024 characters long)"
        ),
        BadInput(
            "900 KB line", "bad.yaml",
            "specs:\n  badge: [{ type: BackgroundColor, color: \"#" + String(repeating: "F", count: 900_000)
                + "\" }]\n",
            (2, 43), "invalidValue",
            "'color' of trait BackgroundColor: invalid colour '#" + String(repeating: "F", count: 58)
                + "…[899932 characters elided]…"
                + String(repeating: "F", count: 10)
                + "': expected #RGB, #RGBA, #RRGGBB, #RRGGBBAA, rgb(r, g, b) or rgba(r, g, b, a)"),
        // Wrong shapes.
        BadInput(
            "top-level array", "bad.json", "[1, 2]", (1, 1), "typeMismatch",
            "expected a mapping with 'specs' (and optionally 'variables', 'themes', 'include'), found a list"),
        BadInput(
            "top-level scalar", "bad.yaml", "hello\n", (1, 1), "typeMismatch",
            "expected a mapping with 'specs' (and optionally 'variables', 'themes', 'include'), found the string 'hello'"
        ),
        BadInput(
            "top-level null", "bad.json", "null", (1, 1), "typeMismatch",
            "expected a mapping with 'specs' (and optionally 'variables', 'themes', 'include'), found null"),
        BadInput(
            "trait list that is a mapping", "bad.json", #"{"specs": {"badge": {"type": "CornerRadius", "radius": 1}}}"#,
            (1, 21), "typeMismatch", "expected a list of traits, found a mapping"),
        BadInput(
            "trait list that is a string", "bad.yaml", "specs:\n  badge: CornerRadius\n", (2, 10), "typeMismatch",
            "expected a list of traits, found the string 'CornerRadius'"),
        BadInput(
            "unknown trait type", "bad.yaml", "specs:\n  badge: [{ type: Sparkle }]\n", (2, 19), "unknownTrait",
            "unknown trait type 'Sparkle'"),
        // Includes that would reach outside the folder. Nothing is ever fetched or read there.
        BadInput(
            "include of ../", "bad.yaml", "include: [../x.yaml]\nspecs: {}\n", (1, 11), "forbiddenPath",
            "include '../x.yaml' leaves the specs folder"),
        BadInput(
            "include of an absolute path", "bad.yaml", "include: [/etc/x.yaml]\nspecs: {}\n", (1, 11), "forbiddenPath",
            "include '/etc/x.yaml' is an absolute path; spec paths are relative to the specs folder"),
        BadInput(
            "include through a symlinked folder", "bad.yaml", "include: [shared/palette.yaml]\nspecs: {}\n", (1, 11),
            "forbiddenPath", "include 'shared/palette.yaml' goes through 'shared', a symbolic link to a folder",
            setUp: linkOutsideFolder),
        BadInput(
            "include of an http URL", "bad.yaml", "include: [\"http://example.com/x.yaml\"]\nspecs: {}\n", (1, 11),
            "forbiddenPath",
            "remote includes are off: 'http://example.com/x.yaml' is not fetched; enable it with --allow-include http://example.com/"
        ),
        BadInput(
            "include of an https URL (cloud metadata)", "bad.json",
            #"{"include": ["https://169.254.169.254/latest.json"], "specs": {}}"#, (1, 14), "forbiddenPath",
            "remote includes are off: 'https://169.254.169.254/latest.json' is not fetched; enable it with --allow-include https://169.254.169.254/"
        ),
        BadInput(
            "include of a file URL", "bad.yaml", "include: [\"file:///etc/x.yaml\"]\nspecs: {}\n", (1, 11),
            "forbiddenPath",
            "remote include 'file:///etc/x.yaml' uses the scheme 'file'; only http and https URLs can be included"),
    ]

    /// 50 MiB: a valid start, then comment lines. Made once; each use shares the bytes.
    static let fiftyMegabytes: Data = {
        let line = Data("# padding padding padding padding padding padding padding padding padding padding pad\n".utf8)
        var data = Data("specs: {}\n".utf8)
        data.reserveCapacity(50 * 1024 * 1024)
        while data.count + line.count <= 50 * 1024 * 1024 { data.append(line) }
        data.append(Data(repeating: UInt8(ascii: "#"), count: 50 * 1024 * 1024 - data.count))
        return data
    }()

    /// Ten levels of ten aliases each: 10^10 nodes once expanded, from under 500 bytes.
    static let aliasBomb: String = {
        var text = "x: &a [l, l, l, l, l, l, l, l, l, l]\n"
        var previous = "a"
        for name in ["b", "c", "d", "e", "f", "g", "h", "i", "j"] {
            text += "\(name): &\(name) [" + Array(repeating: "*\(previous)", count: 10).joined(separator: ", ") + "]\n"
            previous = name
        }
        return text + "specs: {}\n"
    }()

    /// `shared` in the folder: a symbolic link to a folder elsewhere, holding a palette.
    @Sendable static func linkOutsideFolder(_ folder: TemporarySpecFolder) throws {
        let outside = folder.url.deletingLastPathComponent().appending(path: folder.url.lastPathComponent + "-outside")
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        try Data("variables: { a: 1 }\n".utf8).write(to: outside.appending(path: "palette.yaml"))
        try FileManager.default.createSymbolicLink(at: folder.url("shared"), withDestinationURL: outside)
    }
}
