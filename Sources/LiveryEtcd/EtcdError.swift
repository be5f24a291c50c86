/// Why a call to etcd failed.
package struct EtcdError: Error, CustomStringConvertible, Sendable {
    /// The kinds of failure callers tell apart.
    public enum Code: Sendable, Equatable {
        /// No endpoint answered, or the cluster has no leader: try again later.
        case unavailable
        /// The revision asked for was compacted away.
        case compacted
        /// The revision asked for does not exist yet.
        case futureRevision
        /// etcd refused the client's credentials: a wrong user or password, or a token that
        /// expired (the client authenticates again once before it reports this).
        case unauthenticated
        /// The etcd user may not do this (its role lacks the permission on the key).
        case permissionDenied
        /// etcd refused the request, or answered something the client does not understand.
        case protocolError
    }

    /// The kind.
    public var code: Code
    /// What happened, with the endpoint where one is known.
    public var message: String

    /// Creates an error.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// `etcd: <message>`.
    public var description: String { "etcd: \(message)" }
}
