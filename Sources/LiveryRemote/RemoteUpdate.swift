public import Livery

/// What a ``RemoteSpecSource`` yields each time the remote spec really changes, or fails.
public enum RemoteUpdate: Sendable {
    /// A new spec arrived and parsed; the version says which response it came from.
    case loaded(Spec, RemoteVersion)
    /// The server could not be reached or answered with an error (a ``RemoteError``), or the
    /// body did not parse (a `SpecError` whose location names the URL, line and column).
    /// Keep the last loaded spec: the source never replaces a good spec with a bad one.
    case failed(any Error)

    /// The loaded spec, or `nil` for a failure.
    public var spec: Spec? {
        if case .loaded(let spec, _) = self { return spec }
        return nil
    }

    /// The version of a loaded spec, or `nil` for a failure.
    public var version: RemoteVersion? {
        if case .loaded(_, let version) = self { return version }
        return nil
    }

    /// The error, or `nil` for a loaded spec.
    public var error: (any Error)? {
        if case .failed(let error) = self { return error }
        return nil
    }
}
