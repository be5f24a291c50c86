import Foundation
import Livery
import LiveryTesting

/// Prints, as JSON, what a Swift target gets from a specs folder: for no theme and for each
/// theme, the ``StyledBox`` state of a box registered under each identifier after a real
/// `TraitsProvider` loads the spec and switches to the theme. The web page tests (Tests/Browser)
/// compare a browser's computed styles under the daemon's stylesheet with these values, so the
/// expected numbers come from the Swift side, never from the test.
@main enum StyleOracle {
    @MainActor static func main() throws {
        let arguments = CommandLine.arguments
        guard arguments.count == 2 else {
            FileHandle.standardError.write(Data("usage: StyleOracle SPECS-FOLDER\n".utf8))
            exit(2)
        }
        let spec = try Spec(directory: URL(filePath: arguments[1], directoryHint: .isDirectory))
        let provider = TraitsProvider()
        var boxes: [(String, StyledBox)] = []
        for identifier in spec.identifiers {
            let box = StyledBox()
            if provider.register(box, as: identifier) == nil { boxes.append((identifier, box)) }
        }
        try provider.load(spec)
        var looks: [String: [String: Box]] = [:]
        for theme in [nil] + spec.themes {
            try provider.setTheme(theme)
            looks[theme ?? ""] = Dictionary(uniqueKeysWithValues: boxes.map { ($0.0, Box($0.1.snapshot)) })
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let output = Output(themes: spec.themes, looks: looks)
        FileHandle.standardOutput.write(try encoder.encode(output))
    }

    struct Output: Encodable {
        let themes: [String]
        /// By theme name ("" for none), then by identifier.
        let looks: [String: [String: Box]]
    }

    /// A box's state with colours as [red, green, blue, alpha] channels 0…255.
    struct Box: Encodable {
        let backgroundColor: [UInt8]
        let cornerRadius: Double
        let shadowColor: [UInt8]
        let shadowOffset: [Double]
        let shadowOpacity: Double
        let shadowRadius: Double
        let textColor: [UInt8]
        let fontName: String
        let fontSize: Double
        let fontWeight: Int
        let constant: Double
        let borderColor: [UInt8]
        let borderWidth: Double
        let opacity: Double
        let isHidden: Bool
        /// Top, left, bottom, right, as Livery orders them.
        let padding: [Double]
        let retries: Int
        let timeout: Double
        let label: String

        init(_ box: StyledBox.Snapshot) {
            func channels(_ color: Color) -> [UInt8] { [color.red, color.green, color.blue, color.alpha] }
            backgroundColor = channels(box.backgroundColor)
            cornerRadius = box.cornerRadius
            shadowColor = channels(box.shadowColor)
            shadowOffset = [box.shadowOffset.width, box.shadowOffset.height]
            shadowOpacity = box.shadowOpacity
            shadowRadius = box.shadowRadius
            textColor = channels(box.textColor)
            fontName = box.font.name
            fontSize = box.font.size
            fontWeight = box.font.weight.numericValue
            constant = box.constant
            borderColor = channels(box.borderColor)
            borderWidth = box.borderWidth
            opacity = box.opacity
            isHidden = box.isHidden
            padding = [box.padding.top, box.padding.left, box.padding.bottom, box.padding.right]
            retries = box.retries
            timeout = box.timeout
            label = box.label
        }
    }
}
