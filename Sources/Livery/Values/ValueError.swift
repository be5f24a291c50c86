/// A value in a spec (a colour, a colour function, a font weight) that cannot be read.
///
/// The message says what is wrong and what was expected, in one sentence without a trailing
/// period, so that the spec reader can prefix it with a location and print it like a compiler:
/// `card.yaml:3:14: error: invalid colour '#12345': expected #RGB, …`.
public struct ValueError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong and what was expected.
    public var message: String

    /// Creates an error with `message`.
    public init(_ message: String) {
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
