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
        // Written as bytes into the string's own storage: colours are described by the thousand
        // (every colour token read, every colour variable written).
        let length = alpha == 255 ? 7 : 9
        return String(unsafeUninitializedCapacity: length) { text in
            text[0] = UInt8(ascii: "#")
            var end = 1
            for byte in [red, green, blue, alpha] where end < length {
                text[end] = Self.hexDigits[Int(byte >> 4)]
                text[end + 1] = Self.hexDigits[Int(byte & 0x0F)]
                end += 2
            }
            return end
        }
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)
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
