/// Who a client program is, as its `Livery-Client` request header says: the program's name, which
/// running copy of it this is, and the program's own version.
///
/// Each field is at most ``maxFieldBytes`` bytes of UTF-8, so a header always fits the daemon's
/// limits; ``name`` and ``instance`` are not empty.
public struct ClientIdentity: Hashable, Sendable {
    /// The longest field, in bytes of UTF-8.
    public static let maxFieldBytes = 128

    /// The program, such as `shop-web`.
    public let name: String
    /// Which running copy of the program, such as `host-3:4121`.
    public let instance: String
    /// The program's own version, such as `2.4.1`; empty when unknown.
    public let appVersion: String

    /// Checks and wraps the fields.
    ///
    /// - Throws: A ``ClientHeaderError`` naming the field when `name` or `instance` is empty or a
    ///   field is longer than ``maxFieldBytes``.
    public init(name: String, instance: String, appVersion: String = "") throws(ClientHeaderError) {
        for (key, value) in [("name", name), ("instance", instance), ("version", appVersion)] {
            if value.utf8.count > Self.maxFieldBytes {
                throw ClientHeaderError(
                    column: nil, "'\(key)' is \(value.utf8.count) bytes, longer than \(Self.maxFieldBytes)")
            }
        }
        if name.isEmpty { throw ClientHeaderError(column: nil, "'name' is empty") }
        if instance.isEmpty { throw ClientHeaderError(column: nil, "'instance' is empty") }
        self.name = name
        self.instance = instance
        self.appVersion = appVersion
    }

    /// An identity whose fields are cut to ``maxFieldBytes`` (at a character boundary) and
    /// replaced by `unknown` when empty: for names this library makes up itself.
    public init(fitting name: String, instance: String, appVersion: String = "") {
        self.name = Self.fit(name, orElse: "unknown")
        self.instance = Self.fit(instance, orElse: "unknown")
        self.appVersion = Self.fit(appVersion, orElse: "")
    }

    static func fit(_ value: String, orElse fallback: String) -> String {
        var value = Substring(value)
        while value.utf8.count > maxFieldBytes { value = value.dropLast() }
        return value.isEmpty ? fallback : String(value)
    }
}
