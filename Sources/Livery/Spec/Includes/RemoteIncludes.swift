/// What a spec may include from the network, and the documents already fetched for it.
///
/// Resolution stays synchronous and does no I/O: a loader first asks which allowed URLs a set of
/// files needs (``Spec/missingRemoteIncludes(_:roots:limits:remoteIncludes:)``), fetches them
/// however it likes, adds them to ``documents`` and asks again (a fetched document may include
/// further URLs), then builds the spec with everything in hand. `Spec.load(_:roots:registry:limits:allowList:fetcher:)`
/// runs that loop with a ``RemoteIncludeFetcher``.
///
/// A remote document may include other URLs the allow-list enables, never a file of the specs
/// folder: a relative include in a document someone else serves would let that server read the
/// folder's files into the spec.
public struct RemoteIncludes: Sendable {
    /// The URL prefixes remote includes may name; empty (the default) turns them off.
    public var allowList: IncludeAllowList
    /// The documents fetched so far, by URL.
    public var documents: [RemoteIncludeURL: FetchedInclude]
    /// The most distinct remote documents one spec may reach: a bound on what a chain of remote
    /// documents that include each other can make the loader fetch. 32 by default.
    public var maxDocuments: Int

    /// Remote includes off.
    public static let off = RemoteIncludes()

    /// Creates the policy; every parameter has the default described on its property.
    public init(
        allowList: IncludeAllowList = .none, documents: [RemoteIncludeURL: FetchedInclude] = [:], maxDocuments: Int = 32
    ) {
        self.allowList = allowList
        self.documents = documents
        self.maxDocuments = max(maxDocuments, 0)
    }
}
