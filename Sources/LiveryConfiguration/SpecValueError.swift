public import Configuration
public import Livery

/// A spec value read as a type it does not have, such as an integer asked of a colour.
///
/// It reads as swift-configuration's own conversion error does, after the value's place in the
/// spec: `values.yaml:2:21: error: Config value for key 'colors.accent' failed to convert to type
/// int; found the string '#0A84FF'`. A `ConfigReader` treats it as it treats that error: the
/// non-throwing getters report it to the access reporter and return the default, the `required…`
/// getters throw it.
public struct SpecValueError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The key as the provider encodes it (dot-separated).
    public var key: String
    /// The type asked for.
    public var type: ConfigType
    /// Where the value (or the list element that does not fit) is in the spec.
    public var location: SourceLocation
    /// What the value is.
    public var found: String

    /// Creates the error.
    public init(key: String, type: ConfigType, location: SourceLocation, found: String) {
        self.key = key
        self.type = type
        self.location = location
        self.found = found
    }

    /// `file:line:column: error: Config value for key 'k' failed to convert to type t; found …`.
    public var description: String {
        "\(location): error: Config value for key '\(key)' failed to convert to type \(type); found \(found)"
    }
}
