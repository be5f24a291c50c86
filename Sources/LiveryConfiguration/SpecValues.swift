public import Configuration
public import Livery

/// The settings of one spec under one theme, fixed: a swift-configuration `ConfigSnapshot` of the
/// spec's resolved variables.
///
/// A key's components name the path of nested variable mappings, as swift-configuration's file
/// providers encode keys: `http.timeout` is `variables: { http: { timeout: 30 } }`. A key that names
/// no variable, a mapping or a null is not found; a value of another type than asked is a
/// ``SpecValueError`` that names the key, the type and where the value is.
public struct SpecValues: ConfigSnapshot, Sendable, CustomStringConvertible {
    /// The name in swift-configuration's access logs and errors.
    public let providerName: String
    /// The theme the values were resolved for (nil: none).
    public let theme: String?
    /// Leaves of the variables tree by dot-joined path.
    let leaves: [String: SpecNode]

    /// The values of `spec` under `theme`, with every `@reference` and `~function` substituted.
    ///
    /// - Throws: `SpecError`, located, when a variable does not resolve or the theme is unknown.
    public init(spec: Spec, theme: String? = nil, providerName: String = "LiverySpec") throws(SpecError) {
        self.providerName = providerName
        self.theme = theme
        var leaves: [String: SpecNode] = [:]
        Self.collect(try spec.resolvedVariables(theme: theme), path: [], into: &leaves)
        self.leaves = leaves
    }

    /// The value for `key`, converted to `type`.
    public func value(forKey key: AbsoluteConfigKey, type: ConfigType) throws -> LookupResult {
        let encodedKey = Self.encode(key)
        guard let node = leaves[encodedKey] else { return LookupResult(encodedKey: encodedKey, value: nil) }
        let content = try SpecValueConversion.content(of: node, as: type, key: encodedKey)
        return LookupResult(encodedKey: encodedKey, value: content.map { ConfigValue($0, isSecret: false) })
    }

    /// Whether both hold the same keys with the same values, wherever they were written.
    func hasSameValues(as other: SpecValues) -> Bool {
        leaves.count == other.leaves.count
            && leaves.allSatisfy { key, node in other.leaves[key].map(node.hasSameContent) ?? false }
    }

    /// `LiverySpec[12 values]`, as swift-configuration's snapshots describe themselves.
    public var description: String { "\(providerName)[\(leaves.count) values]" }

    /// Keys are dot-separated, as swift-configuration's JSON and YAML snapshots encode them.
    static func encode(_ key: AbsoluteConfigKey) -> String {
        key.components.joined(separator: ".")
    }

    private static func collect(_ node: SpecNode, path: [String], into leaves: inout [String: SpecNode]) {
        guard let members = node.members else {
            if !path.isEmpty { leaves[path.joined(separator: ".")] = node }
            return
        }
        for member in members {
            collect(member.value, path: path + [member.key], into: &leaves)
        }
    }
}
