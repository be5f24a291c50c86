/// The syntax of a spec file. Both read into the same ``SpecNode`` model.
public enum SpecFormat: String, Sendable, CaseIterable {
    /// JSON, RFC 8259, read strictly: no comments, no trailing commas, no duplicate keys.
    case json
    /// YAML 1.2, one document per file, scalars typed by the core schema.
    case yaml

    /// The format a file extension names: `json` (and `tokens`, the design tokens format's own
    /// extension, which is JSON), or `yaml`/`yml`, in any letter case.
    ///
    /// Returns `nil` for any other extension, so callers can refuse the file instead of
    /// guessing its syntax.
    public init?(pathExtension: String) {
        switch pathExtension.lowercased() {
        case "json", "tokens": self = .json
        case "yaml", "yml": self = .yaml
        default: return nil
        }
    }

    /// The `Content-Type` a spec file of this format is served with (the daemon's
    /// `GET /v1/specs/{path}`).
    public var contentType: String {
        switch self {
        case .json: "application/json"
        case .yaml: "application/yaml; charset=utf-8"
        }
    }
}
