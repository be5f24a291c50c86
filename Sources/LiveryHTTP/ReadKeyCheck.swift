/// Tells whether the bytes of an `Authorization` value carry a key that may read.
@_spi(LiveryInternal) public protocol ReadKeyCheck: Sendable {
    /// Whether `authorization` carries a key that may read, compared in constant time.
    func admitsRead(_ authorization: UnsafeRawBufferPointer) -> Bool
}

/// Fixed tokens, each of which may read.
struct TokenList: ReadKeyCheck {
    let tokens: [BearerToken]

    func admitsRead(_ authorization: UnsafeRawBufferPointer) -> Bool {
        tokens.contains { $0.authorizes(authorization) }
    }
}
