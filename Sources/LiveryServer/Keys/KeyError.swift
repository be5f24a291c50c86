/// Why a key cannot be added or revoked.
enum KeyError: Error, Sendable {
    /// The name, scopes or environments break a rule; the message says which.
    case invalid(String)
    /// A key of that name exists.
    case exists(String)
    /// No stored key has that name.
    case unknown(String)
    /// The name is one of the keys given on the command line, which the API cannot change.
    case fixed(String)
    /// The name is `self`, the path of the calling key's own answer (`/v1/keys/self`).
    case reserved(String)
    /// The storage failed.
    case store(StoreError)
}
