/// What a ``FolderWatcher`` yields each time the folder's content really changes.
public enum Update<Value: Sendable>: Sendable {
    /// The folder's content loaded; the hash fingerprints the bytes it was loaded from.
    case loaded(Value, ContentHash)
    /// The content could not be loaded (the loader threw), or the folder cannot be watched
    /// (a ``WatchError``). Keep the last loaded value: the watcher never replaces a good value
    /// with a bad one, it reports the problem and carries on.
    case failed(any Error)

    /// The loaded value, or `nil` for a failure.
    public var value: Value? {
        if case .loaded(let value, _) = self { return value }
        return nil
    }

    /// The error, or `nil` for a loaded value.
    public var error: (any Error)? {
        if case .failed(let error) = self { return error }
        return nil
    }
}
