/// Something in a spec that works but deserves attention, such as a use of a deprecated design
/// token. Located like a ``SpecError`` and printed like a compiler warning:
/// `card.yaml:4:28: warning: '@color.legacy' is deprecated: use {color.brand.primary}`.
public struct SpecWarning: Hashable, Sendable, CustomStringConvertible {
    /// Where the warning is.
    public var location: SourceLocation
    /// What deserves attention, with the other places it names kept as places.
    public var text: SpecMessage

    /// Creates a warning.
    public init(at location: SourceLocation, _ text: SpecMessage) {
        self.location = location
        self.text = text
    }

    /// The message, files named as the spec set stores them.
    public var message: String { text.rendered(.asStored) }

    /// The same warning with every place in it named by `naming`.
    public func named(_ naming: SpecFileNaming) -> SpecWarning {
        SpecWarning(at: naming.name(location), text.named(naming))
    }

    /// `file:line:column: warning: message`.
    public var description: String { "\(location): warning: \(message)" }
}
