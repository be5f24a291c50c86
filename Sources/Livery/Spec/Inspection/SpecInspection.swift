/// What a spec resolves to, with the places it was written: for every look (no theme, then each
/// theme in document order), each identifier's traits and each variable's value.
///
/// A bundle (``Spec/bundleJSON``) carries the spec's content but not where it came from; a tool
/// that shows a designer why `card.title` is blue needs both. Lists that hold one entry per look
/// are in the order of ``looks``: index 0 is the spec without a theme, index `i` the theme
/// `themes[i - 1]`.
public struct SpecInspection: Sendable, Encodable {
    /// A place in a spec file, encoded as `{"file", "line", "column"}`.
    public struct Place: Sendable, Encodable, Equatable {
        /// The file's path relative to the specs folder.
        public var file: String
        /// The line, starting at 1.
        public var line: Int
        /// The column, starting at 1.
        public var column: Int

        /// The place of `location`.
        public init(_ location: SourceLocation) {
            file = location.file
            line = location.line
            column = location.column
        }
    }

    /// What kind of value a variable holds, so a tool can offer a fitting control.
    public enum Kind: String, Sendable, Encodable {
        /// A colour in any syntax, or a colour function (`~alpha`, `~mix`).
        case color
        /// A number.
        case number
        /// `{top, left, bottom, right}`.
        case insets
        /// `{width, height}`.
        case size
        /// A list.
        case list
        /// `true` or `false`.
        case bool
        /// Any other string (a font family, a weight name).
        case string
        /// Anything else (a mapping of other keys, null).
        case other
    }

    /// One variable (a leaf of `variables`; insets and sizes count as one value).
    public struct Variable: Sendable, Encodable {
        /// The dotted path a reference names: `colors.accent` for `@colors.accent`.
        public var path: String
        /// The kind of its value without a theme.
        public var kind: Kind
        /// Where its value is written.
        public var place: Place
        /// The value as written (a colour function or a reference stays as text).
        public var source: SpecNode
        /// The resolved value for each look, in the order of ``SpecInspection/looks``.
        public var values: [SpecNode]
        /// The design token the variable was read from, if it was.
        public var token: Token?
    }

    /// A design token behind a variable: what a tool shows beside it and writes when it edits it.
    public struct Token: Sendable, Encodable {
        /// Its `$type` (nil for an alias, which takes its target's).
        public var type: String?
        /// Its `$description`.
        public var description: String?
        /// Its `$deprecated` reason ("" when deprecated without one); nil when not deprecated.
        public var deprecated: String?
        /// Its `$value` as written in the tokens file: what an edit replaces at ``Variable/place``.
        public var value: SpecNode
    }

    /// One override of a theme.
    public struct Override: Sendable, Encodable {
        /// The variable's dotted path.
        public var path: String
        /// Where the override is written.
        public var place: Place
        /// The value as written.
        public var source: SpecNode
    }

    /// One theme and what it overrides.
    public struct Theme: Sendable, Encodable {
        /// The theme's name.
        public var name: String
        /// Where the theme starts.
        public var place: Place
        /// The variables it overrides, in document order.
        public var overrides: [Override]
    }

    /// One trait of an identifier's resolved list.
    public struct TraitEntry: Sendable, Encodable {
        /// The trait's type name: `BackgroundColor`.
        public var type: String
        /// Where the entry is written.
        public var place: Place
        /// The identifier the entry belongs to when it came in through `Inherit`, else nil.
        public var inheritedFrom: String?
        /// The entry's fields (all but `type`) with references and functions resolved.
        public var values: SpecNode
        /// The entry's fields as written.
        public var source: SpecNode
        /// Where each field's value is written, by field name, so a tool can edit one in place.
        public var fieldPlaces: [String: Place]
        /// The variables the entry names, in the order they appear.
        public var references: [String]
    }

    /// One identifier and its resolved traits for each look.
    public struct Identifier: Sendable, Encodable {
        /// The identifier: `card.title`.
        public var name: String
        /// Where its trait list starts.
        public var place: Place
        /// Its traits after `Inherit` is flattened, for each look.
        public var traits: [[TraitEntry]]
    }

    /// The looks, in the order every per-look list follows: nil (no theme), then each theme.
    public var looks: [String?]
    /// The themes, in document order.
    public var themes: [Theme]
    /// The variables, in document order.
    public var variables: [Variable]
    /// The identifiers, in document order.
    public var identifiers: [Identifier]
    /// The files the spec was read from, in merge order.
    public var files: [String]
}
