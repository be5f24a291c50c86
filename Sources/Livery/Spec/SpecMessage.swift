/// The text of a ``SpecError``: words, and the places in the specs that it names besides the
/// error's own location — where a duplicate was first defined, the files of an include cycle, the
/// definitions of a reference cycle.
///
/// The places stay places, not text, so that every surface writes them against the same base as
/// the error's location (``SpecError/named(_:)``): `livery validate Specs` names both ends of a
/// duplicate as `Specs/…`, the daemon names both relative to its folder. Write a place with
/// `\(place: location)` or `\(file: path)`; inside a message that does, a bare `\(location)`
/// does not compile.
public struct SpecMessage: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringInterpolation {
    /// One piece of a message.
    public enum Part: Hashable, Sendable {
        /// Words, printed as they are.
        case text(String)
        /// A place in a file: `file:line:column`.
        case location(SourceLocation)
        /// A whole file, named by its path.
        case file(String)
    }

    /// The pieces, in order.
    public private(set) var parts: [Part]

    /// Creates a message from its pieces.
    public init(parts: [Part]) {
        self.parts = []
        for part in parts { append(part) }
    }

    /// A message of words only.
    public init(stringLiteral value: String) {
        self.init(parts: [.text(value)])
    }

    /// A message written with `\(place:)` and `\(file:)` interpolations for its places.
    public init(stringInterpolation: StringInterpolation) {
        self.init(parts: stringInterpolation.parts)
    }

    /// The message with every file named by `naming`. Control characters are escaped and very
    /// long runs of quoted text elided, so it stays printable and short whatever the file held.
    public func rendered(_ naming: SpecFileNaming) -> String {
        var text = ""
        for part in parts {
            switch part {
            case .text(let words): text += words
            case .location(let location): text += naming.name(location).description
            case .file(let file): text += naming.name(file)
            }
        }
        return MessageText.sanitized(text)
    }

    /// The same message with every place named by `naming`, still as places.
    public func named(_ naming: SpecFileNaming) -> SpecMessage {
        SpecMessage(
            parts: parts.map { part in
                switch part {
                case .text: part
                case .location(let location): .location(naming.name(location))
                case .file(let file): .file(naming.name(file))
                }
            })
    }

    /// The message with files named as the spec set stores them (relative to the specs folder).
    public var description: String { rendered(.asStored) }

    /// The places the message names, in order.
    public var places: [Part] { parts.filter { if case .text = $0 { false } else { true } } }

    private mutating func append(_ part: Part) {
        if case .text(let words) = part, case .text(let before)? = parts.last {
            parts[parts.count - 1] = .text(before + words)
        } else if part != .text("") {
            parts.append(part)
        }
    }

    /// Builds a ``SpecMessage`` from a string literal with interpolations.
    public struct StringInterpolation: StringInterpolationProtocol {
        fileprivate var parts: [Part] = []

        /// Creates an empty interpolation.
        public init(literalCapacity: Int, interpolationCount: Int) {}

        /// Words of the literal.
        public mutating func appendLiteral(_ literal: String) { parts.append(.text(literal)) }

        /// Any value as words, as `String(describing:)` writes it.
        public mutating func appendInterpolation<Value>(_ value: Value) {
            parts.append(.text(String(describing: value)))
        }

        /// A place in a file, written against the surface's base.
        public mutating func appendInterpolation(place location: SourceLocation) {
            parts.append(.location(location))
        }

        /// A whole file, written against the surface's base.
        public mutating func appendInterpolation(file path: String) {
            parts.append(.file(path))
        }

        /// A location must be written as a place, `\(place: location)`, or its file would not
        /// follow the surface's base.
        @available(*, unavailable, message: "write a place as \\(place: location)")
        public mutating func appendInterpolation(_ location: SourceLocation) {}
    }
}
