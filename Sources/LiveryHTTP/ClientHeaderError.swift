/// A `Livery-Client` header that does not parse, or an identity that cannot be sent in one.
///
/// It prints like a compiler's error, with the 1-based byte column in the header's value when
/// there is one: `Livery-Client:1:7: error: expected '"' to end the string`.
public struct ClientHeaderError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The 1-based byte offset in the header's value, or `nil` for an identity built in code.
    public var column: Int?
    /// What is wrong, in one sentence without a trailing period.
    public var message: String

    /// Creates an error.
    public init(column: Int?, _ message: String) {
        self.column = column
        self.message = message
    }

    /// `Livery-Client:1:COLUMN: error: message`, or `Livery-Client: error: message`.
    public var description: String {
        if let column { return "\(LiveryClientHeader.fieldName):1:\(column): error: \(message)" }
        return "\(LiveryClientHeader.fieldName): error: \(message)"
    }
}
