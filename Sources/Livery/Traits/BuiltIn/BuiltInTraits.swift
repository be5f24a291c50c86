/// The traits every ``TraitRegistry`` starts with.
enum BuiltInTraits {
    static let all: [TraitType] = [
        TraitType(BackgroundColor.self),
        TraitType(CornerRadius.self),
        TraitType(DropShadow.self),
        TraitType(FontTrait.self),
        TraitType(Constraint.self),
        TraitType(Border.self),
        TraitType(Opacity.self),
        TraitType(Hidden.self),
        TraitType(Padding.self),
        TraitType(TextColor.self),
        TraitType(SetTrait.self),
    ]
}
