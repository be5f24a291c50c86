/// An sRGB colour with 8 bits a channel, as specs write it: `"#0A84FF"`, `"rgba(0, 0, 0, 0.3)"`.
///
/// A colour prints canonically as `#RRGGBB` (uppercase) when it is opaque and `#RRGGBBAA`
/// otherwise, and encodes as that string, so `Color(parsing: color.description) == color`.
/// Parsing is in `Color+Parsing.swift`.
public struct Color: Hashable, Sendable, CustomStringConvertible {
    /// The red channel, 0...255.
    public var red: UInt8
    /// The green channel, 0...255.
    public var green: UInt8
    /// The blue channel, 0...255.
    public var blue: UInt8
    /// The alpha channel, 0 (transparent) ... 255 (opaque).
    public var alpha: UInt8

    /// Creates a colour from its channels; it is opaque unless `alpha` says otherwise.
    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// Opaque white, `#FFFFFF`.
    public static let white = Color(red: 255, green: 255, blue: 255)
    /// Opaque black, `#000000`.
    public static let black = Color(red: 0, green: 0, blue: 0)
    /// Fully transparent black, `#00000000`.
    public static let clear = Color(red: 0, green: 0, blue: 0, alpha: 0)

    /// `#RRGGBB` in uppercase when the colour is opaque, `#RRGGBBAA` otherwise.
    public var description: String {
        // Written byte by byte into one small string: a stylesheet prints thousands of colours, and
        // every colour token read or colour variable written is described.
        String(unsafeUninitializedCapacity: 9) { text in
            text[0] = UInt8(ascii: "#")
            Self.writeHex(red, into: text, at: 1)
            Self.writeHex(green, into: text, at: 3)
            Self.writeHex(blue, into: text, at: 5)
            guard alpha != 255 else { return 7 }
            Self.writeHex(alpha, into: text, at: 7)
            return 9
        }
    }

    /// Two uppercase hexadecimal digits of `byte` at `index` and `index + 1`.
    private static func writeHex(_ byte: UInt8, into text: UnsafeMutableBufferPointer<UInt8>, at index: Int) {
        func digit(_ value: UInt8) -> UInt8 { value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "A") + value - 10 }
        text[index] = digit(byte >> 4)
        text[index + 1] = digit(byte & 0x0F)
    }
}

extension Color: Codable {
    /// Decodes a colour from a single string in any syntax ``init(parsing:)`` accepts.
    ///
    /// A string that is not a colour is `DecodingError.dataCorrupted` whose debug description is
    /// the ``ValueError`` message, so the spec reader can report it at the value's location.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        do {
            try self.init(parsing: text)
        } catch {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(codingPath: decoder.codingPath, debugDescription: error.message)
            )
        }
    }

    /// Encodes the canonical string, ``description``.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
