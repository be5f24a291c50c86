/// Fetches the documents of remote includes. `Livery` itself does no networking: the HTTP
/// implementation is `LiveryRemote`'s `HTTPIncludeFetcher`, and a test or an embedding app can
/// provide its own.
public protocol RemoteIncludeFetcher: Sendable {
    /// The document at `url` (already checked against the allow-list), or why there is none.
    /// Never throws: every failure is a ``FetchedInclude/failed(_:)`` that the include reports.
    func fetch(_ url: RemoteIncludeURL) async -> FetchedInclude
}
