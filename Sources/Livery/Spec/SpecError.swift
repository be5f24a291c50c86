/// An error in a spec: where it is and what was expected there.
///
/// Its description reads like a compiler diagnostic, `file:line:column: error: message`, so
/// editors and terminals can jump to the place.
public struct SpecError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kind of a ``SpecError``, for code that reacts to some kinds differently.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The code's name.
        public let name: String

        private init(_ name: String) { self.name = name }

        /// The text is not valid YAML or JSON (or not valid UTF-8).
        public static let syntax = Code("syntax")
        /// A value has the wrong type, such as a string where a number was expected.
        public static let typeMismatch = Code("typeMismatch")
        /// A value has the right type but is not acceptable (a bad colour, a number out of range).
        public static let invalidValue = Code("invalidValue")
        /// A required key is missing.
        public static let missingKey = Code("missingKey")
        /// A key that nothing reads: a typo, or a field the trait does not have.
        public static let unknownKey = Code("unknownKey")
        /// A mapping has the same key twice.
        public static let duplicateKey = Code("duplicateKey")
        /// A trait entry names a type the registry does not know.
        public static let unknownTrait = Code("unknownTrait")
        /// A `@reference` names no variable, or an `Inherit` names no identifier.
        public static let unresolvedReference = Code("unresolvedReference")
        /// References, includes or `Inherit`s form a cycle.
        public static let cycle = Code("cycle")
        /// An include or a file is outside the specs folder, hidden, or has another extension.
        public static let forbiddenPath = Code("forbiddenPath")
        /// The same identifier, variable or theme value is defined in two places.
        public static let duplicateDefinition = Code("duplicateDefinition")
        /// A theme that the spec does not define.
        public static let unknownTheme = Code("unknownTheme")
        /// A file could not be read.
        public static let io = Code("io")
        /// A document is larger or deeper than the limits allow.
        public static let limitExceeded = Code("limitExceeded")
        /// A trait cannot apply to a registered target: it lacks the trait's capability.
        public static let missingCapability = Code("missingCapability")
        /// A trait threw while applying to a target.
        public static let applyFailed = Code("applyFailed")

        /// The code's name.
        public var description: String { name }
    }

    /// What kind of error this is.
    public var code: Code
    /// Where the error is.
    public var location: SourceLocation
    /// What is wrong and what was expected, with the other places it names kept as places.
    public var text: SpecMessage

    /// Creates an error whose message names no other place.
    public init(_ code: Code, at location: SourceLocation, _ message: String) {
        self.init(code, at: location, SpecMessage(parts: [.text(message)]))
    }

    /// Creates an error whose message names other places: write them `\(place: location)` or
    /// `\(file: path)`, so that ``named(_:)`` renames them with the error's own location.
    public init(_ code: Code, at location: SourceLocation, _ text: SpecMessage) {
        self.code = code
        self.location = location
        self.text = text
    }

    /// What is wrong and what was expected, in one sentence without a trailing period, with
    /// every place named as the spec set stores it. Control characters are escaped and very long
    /// runs of quoted text elided, so a diagnostic stays printable and short whatever the file holds.
    public var message: String { text.rendered(.asStored) }

    /// The same error with every place in it — its location and each place its message names —
    /// named by `naming`. The one way a surface writes a diagnostic against its own base.
    public func named(_ naming: SpecFileNaming) -> SpecError {
        SpecError(code, at: naming.name(location), text.named(naming))
    }

    /// `file:line:column: error: message`.
    public var description: String { "\(location): error: \(message)" }

    /// Errors are equal when they print the same: the same code, place and message.
    public static func == (lhs: SpecError, rhs: SpecError) -> Bool {
        lhs.code == rhs.code && lhs.location == rhs.location && lhs.message == rhs.message
    }

    /// Hashes what `==` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
        hasher.combine(location)
        hasher.combine(message)
    }
}

/// Every error found in a spec, in source order. Thrown where a caller wants all of them at once
/// (validation, pushes); ``Spec``'s initialisers throw the first as a ``SpecError``.
public struct SpecErrors: Error, Sendable, CustomStringConvertible {
    /// The errors, at least one.
    public var errors: [SpecError]

    /// Creates the list.
    public init(_ errors: [SpecError]) { self.errors = errors }

    /// One diagnostic a line.
    public var description: String { errors.map(\.description).joined(separator: "\n") }
}
