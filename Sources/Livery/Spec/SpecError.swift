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
    /// What is wrong and what was expected, in one sentence without a trailing period.
    public var message: String

    /// Creates an error. Control characters in `message` are escaped and very long runs of
    /// quoted text elided, so a diagnostic stays printable and short whatever the file holds.
    public init(_ code: Code, at location: SourceLocation, _ message: String) {
        self.code = code
        self.location = location
        self.message = MessageText.sanitized(message)
    }

    /// `file:line:column: error: message`.
    public var description: String { "\(location): error: \(message)" }
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
