/// The YAML tags a spec may use, and the errors for the others.
///
/// Only the core schema's tags mean anything in a spec: `!!str`, `!!int`, `!!float`, `!!bool`,
/// `!!null` on scalars, `!!seq` and `!!map` on collections, and the non-specific `!`.
enum YAMLTag {
    private static let prefix = "tag:yaml.org,2002:"
    private static let known = ["str", "int", "float", "bool", "null", "seq", "map"].map { prefix + $0 }

    /// Throws unless a list (or, with `isMapping`, a mapping) may carry `tag`.
    static func checkCollection(_ tag: String?, isMapping: Bool, at location: SourceLocation) throws(SpecError) {
        guard let tag, tag != "!", tag != prefix + (isMapping ? "map" : "seq") else { return }
        throw error(tag, on: isMapping ? "a mapping" : "a list", at: location)
    }

    /// The error for `tag` on a node of `kind` ("a list", "a scalar") that cannot carry it.
    static func error(_ tag: String, on kind: String, at location: SourceLocation) -> SpecError {
        guard known.contains(tag) else {
            let allowed = "only !!str, !!int, !!float, !!bool, !!null, !!seq and !!map are allowed"
            return SpecError(.invalidValue, at: location, "unsupported tag '\(displayName(of: tag))'; \(allowed)")
        }
        return SpecError(.invalidValue, at: location, "tag '\(displayName(of: tag))' cannot be used on \(kind)")
    }

    /// `!!int` for `tag:yaml.org,2002:int`, as the user most likely wrote it.
    static func displayName(of tag: String) -> String {
        tag.hasPrefix(prefix) ? "!!" + tag.dropFirst(prefix.count) : tag
    }
}
