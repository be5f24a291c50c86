/// Capability protocols: what a target must adopt for the built-in traits to apply.
///
/// Targets are classes (traits mutate them in place and the provider holds them weakly); adopt
/// only the capabilities a type really has. Each refines ``TraitTarget``, through which a
/// ``PropertyTrait`` declares how it reaches the property.

/// A target with a background colour (``BackgroundColor``).
public protocol HasBackgroundColor: TraitTarget {
    /// The background colour.
    var backgroundColor: Color { get set }
}

/// A target with rounded corners (``CornerRadius``).
public protocol HasCornerRadius: TraitTarget {
    /// The corner radius, in points.
    var cornerRadius: Double { get set }
}

/// A target that casts a shadow (``DropShadow``).
public protocol HasDropShadow: TraitTarget {
    /// The shadow's colour.
    var shadowColor: Color { get set }
    /// How far the shadow is offset.
    var shadowOffset: Size { get set }
    /// The shadow's opacity, 0…1.
    var shadowOpacity: Double { get set }
    /// The shadow's blur radius.
    var shadowRadius: Double { get set }
}

/// A target that draws text in a colour (``TextColor``).
public protocol HasTextColor: TraitTarget {
    /// The text colour.
    var textColor: Color { get set }
}

/// A target that draws text in a font (``FontTrait``); text has a colour too.
public protocol HasFont: HasTextColor {
    /// The font.
    var font: Font { get set }
}

/// A target with a tunable constant, such as a layout constraint (``Constraint``).
public protocol HasConstant: TraitTarget {
    /// The constant.
    var constant: Double { get set }
}

/// A target with a border (``Border``).
public protocol HasBorder: TraitTarget {
    /// The border's colour.
    var borderColor: Color { get set }
    /// The border's width.
    var borderWidth: Double { get set }
}

/// A target with an opacity (``Opacity``).
public protocol HasOpacity: TraitTarget {
    /// The opacity, 0…1.
    var opacity: Double { get set }
}

/// A target that can be hidden (``Hidden``).
public protocol HasHidden: TraitTarget {
    /// Whether the target is hidden.
    var isHidden: Bool { get set }
}

/// A target with inner spacing (``Padding``).
public protocol HasPadding: TraitTarget {
    /// The padding.
    var padding: Insets { get set }
}
