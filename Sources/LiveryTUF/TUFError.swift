/// Why metadata or a key was refused; each case names what was expected.
package enum TUFError: Error, Equatable, CustomStringConvertible {
    /// The metadata is not the JSON of the role expected (`detail` says what is wrong).
    case malformed(role: String, detail: String)
    /// Fewer distinct keys of the role signed it than its threshold asks (`unusable`: the
    /// role's keys that could not verify anything, and why).
    case belowThreshold(role: String, valid: Int, threshold: Int, unusable: [String])
    /// The root metadata names no such role.
    case unknownRole(String)
    /// A key is not an Ed25519 key in TUF's form, or its bytes are not a key.
    case badKey(String)

    package var description: String {
        switch self {
        case .malformed(let role, let detail): "\(role) metadata: \(detail)"
        case .belowThreshold(let role, let valid, let threshold, let unusable):
            "\(role) metadata: \(valid) valid signature(s) from the role's keys, \(threshold) required"
                + (unusable.isEmpty ? "" : " (unusable keys: \(unusable.joined(separator: "; ")))")
        case .unknownRole(let role): "root metadata has no role \"\(role)\""
        case .badKey(let detail): "key: \(detail)"
        }
    }
}
