/// One file of the specs folder as `GET /v1/specs` lists it.
package struct SpecFileEntry: Codable, Hashable, Sendable {
    /// The path relative to the specs folder.
    public var path: String
    /// The strong tag of the file's bytes, in header form (quoted).
    public var etag: String
    /// The size in bytes.
    public var size: Int

    /// Creates an entry.
    public init(path: String, etag: String, size: Int) {
        self.path = path
        self.etag = etag
        self.size = size
    }
}
