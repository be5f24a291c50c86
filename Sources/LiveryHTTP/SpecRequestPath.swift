import Foundation

/// The `{path}` of `/v1/specs/{path}` as the client sent it, before the path rules
/// (``Livery/SpecPath``) judge it.
@_spi(LiveryInternal) public enum SpecRequestPath {
    /// Where the spec files are under the daemon's URL space.
    public static let prefix = "/v1/specs/"

    /// The part of `uriPath` after ``prefix`` (or after an environment's, see ``EnvironmentPath``),
    /// percent-decoded; `nil` when `uriPath` does not start with either or is not valid
    /// percent-encoded UTF-8.
    ///
    /// It takes the request's raw path, not the router's parameters: a router may drop `..` or
    /// empty segments, which the path rules must see to refuse.
    public static func decode(_ uriPath: String) -> String? {
        let route = EnvironmentPath.split(uriPath).path
        guard route.hasPrefix(prefix) else { return nil }
        return String(route.dropFirst(prefix.count)).removingPercentEncoding
    }
}
