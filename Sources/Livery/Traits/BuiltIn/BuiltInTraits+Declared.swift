// The built-in property traits store exactly their declared fields and decode through the
// synthesised `init(from:)`, so each is read by its declaration (``DeclarationDecodable``).

extension BackgroundColor: DeclarationDecodable {
    static var blank: Self { Self(color: .black) }
}

extension Border: DeclarationDecodable {
    static var blank: Self { Self() }
}

extension Constraint: DeclarationDecodable {
    static var blank: Self { Self(constant: 0) }
}

extension CornerRadius: DeclarationDecodable {
    static var blank: Self { Self(radius: 0) }
}

extension DropShadow: DeclarationDecodable {
    static var blank: Self { Self() }
}

extension FontTrait: DeclarationDecodable {
    static var blank: Self { Self() }
}

extension Hidden: DeclarationDecodable {
    static var blank: Self { Self(hidden: false) }
}

extension Opacity: DeclarationDecodable {
    static var blank: Self { Self(opacity: 1) }
}

extension Padding: DeclarationDecodable {
    static var blank: Self { Self(insets: .zero) }
}

extension TextColor: DeclarationDecodable {
    static var blank: Self { Self(color: .black) }
}
