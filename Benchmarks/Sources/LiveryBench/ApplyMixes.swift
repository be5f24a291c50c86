import Livery

/// BackgroundColor, CornerRadius, Opacity, Border (colour and width) and Padding.
enum FiveWithBorder: ApplyMix {
    struct Values: Equatable {
        var background: Color
        var radius: Double
        var opacity: Double
        var borderColor: Color
        var borderWidth: Double
        var padding: Insets
    }

    static let title = "5 traits with Border"

    static func values(index: Int, variant: Int) -> Values {
        let seed = seed(index, variant)
        return Values(
            background: color(seed, variant), radius: Double((index + variant * 7) % 24 + 1),
            opacity: Double((index + variant * 3) % 8) / 8, borderColor: color(seed >> 3, variant),
            borderWidth: Double(variant + index % 4), padding: Insets(all: Double(variant * 2 + index % 8)))
    }

    static func specJSON(_ v: Values) -> String {
        #"[{"type":"BackgroundColor","color":"\#(v.background)"},{"type":"CornerRadius","radius":\#(v.radius)},"#
            + #"{"type":"Opacity","opacity":\#(v.opacity)},"#
            + #"{"type":"Border","color":"\#(v.borderColor)","width":\#(v.borderWidth)},"#
            + #"{"type":"Padding","insets":\#(v.padding.top)}]"#
    }

    static func read(_ box: MixBox) -> Values {
        Values(
            background: box.backgroundColor, radius: box.cornerRadius, opacity: box.opacity,
            borderColor: box.borderColor, borderWidth: box.borderWidth, padding: box.padding)
    }

    static func assign(_ v: Values, to box: MixBox) {
        box.backgroundColor = v.background
        box.cornerRadius = v.radius
        box.opacity = v.opacity
        box.borderColor = v.borderColor
        box.borderWidth = v.borderWidth
        box.padding = v.padding
    }
}

/// The demo card's mix: Font (name, size, weight, colour), DropShadow (its four), Border,
/// TextColor and BackgroundColor.
enum DemoCardMix: ApplyMix {
    struct Values: Equatable {
        var font: Font
        var fontColor: Color
        var shadowColor: Color
        var shadowOffset: Size
        var shadowOpacity: Double
        var shadowRadius: Double
        var borderColor: Color
        var borderWidth: Double
        var text: Color
        var background: Color
    }

    static let title = "the demo card's mix (Font, DropShadow, Border, TextColor, BackgroundColor)"

    static func values(index: Int, variant: Int) -> Values {
        let seed = seed(index, variant)
        let weights: [FontWeight] = [.light, .regular, .semibold, .bold]
        return Values(
            font: Font(
                name: "F\(index % 7 + variant)", size: Double(index % 9 + 10 + variant), weight: weights[seed & 3]),
            fontColor: color(seed >> 1, variant), shadowColor: color(seed >> 2, variant),
            shadowOffset: Size(width: Double(variant), height: Double(index % 4 + 1)),
            shadowOpacity: Double((index + variant) % 8) / 8, shadowRadius: Double(index % 6 + variant),
            borderColor: color(seed >> 3, variant), borderWidth: Double(variant + index % 3),
            text: color(seed >> 4, variant), background: color(seed, variant))
    }

    static func specJSON(_ v: Values) -> String {
        #"[{"type":"Font","name":"\#(v.font.name)","size":\#(v.font.size),"weight":"\#(v.font.weight.rawValue)","color":"\#(v.fontColor)"},"#
            + #"{"type":"DropShadow","color":"\#(v.shadowColor)","offset":[\#(v.shadowOffset.width),\#(v.shadowOffset.height)],"#
            + #""opacity":\#(v.shadowOpacity),"radius":\#(v.shadowRadius)},"#
            + #"{"type":"Border","color":"\#(v.borderColor)","width":\#(v.borderWidth)},"#
            + #"{"type":"TextColor","color":"\#(v.text)"},{"type":"BackgroundColor","color":"\#(v.background)"}]"#
    }

    /// `fontColor` reads the text colour too: the Font trait's colour is the text colour, which
    /// TextColor then sets again; what a revert puts back is the one before both.
    static func read(_ box: MixBox) -> Values {
        Values(
            font: box.font, fontColor: box.textColor, shadowColor: box.shadowColor, shadowOffset: box.shadowOffset,
            shadowOpacity: box.shadowOpacity, shadowRadius: box.shadowRadius, borderColor: box.borderColor,
            borderWidth: box.borderWidth, text: box.textColor, background: box.backgroundColor)
    }

    static func assign(_ v: Values, to box: MixBox) {
        box.font = v.font
        box.textColor = v.fontColor
        box.shadowColor = v.shadowColor
        box.shadowOffset = v.shadowOffset
        box.shadowOpacity = v.shadowOpacity
        box.shadowRadius = v.shadowRadius
        box.borderColor = v.borderColor
        box.borderWidth = v.borderWidth
        box.textColor = v.text
        box.backgroundColor = v.background
    }
}

/// `Set` of five tweakables.
enum FiveTweakables: ApplyMix {
    struct Values: Equatable {
        var retries: Int
        var timeout: Double
        var scale: Double
        var limit: Int
        var label: String
    }

    static let title = "Set of 5 tweakables"

    static func values(index: Int, variant: Int) -> Values {
        Values(
            retries: index % 5 + variant, timeout: Double(index % 8 + variant) / 4, scale: Double(variant + 1) / 2,
            limit: index % 100 + variant, label: "l\(index % 10)v\(variant)")
    }

    static func specJSON(_ v: Values) -> String {
        #"[{"type":"Set","values":{"retries":\#(v.retries),"timeout":\#(v.timeout),"scale":\#(v.scale),"#
            + #""limit":\#(v.limit),"label":"\#(v.label)"}}]"#
    }

    static func read(_ box: MixBox) -> Values {
        Values(retries: box.retries, timeout: box.timeout, scale: box.scale, limit: box.limit, label: box.label)
    }

    static func assign(_ v: Values, to box: MixBox) {
        box.retries = v.retries
        box.timeout = v.timeout
        box.scale = v.scale
        box.limit = v.limit
        box.label = v.label
    }
}

/// A custom two-property trait declared for the fast path (``Glow``).
enum CustomGlow: ApplyMix {
    struct Values: Equatable {
        var radius: Double
        var color: Color
    }

    static let title = "a custom 2-property trait declared for the fast path (Glow)"

    static func values(index: Int, variant: Int) -> Values {
        Values(radius: Double(index % 12 + variant), color: color(seed(index, variant), variant))
    }

    static func specJSON(_ v: Values) -> String {
        #"[{"type":"Glow","radius":\#(v.radius),"color":"\#(v.color)"}]"#
    }

    static func read(_ box: MixBox) -> Values { Values(radius: box.glowRadius, color: box.glowColor) }

    static func assign(_ v: Values, to box: MixBox) {
        box.glowRadius = v.radius
        box.glowColor = v.color
    }
}
