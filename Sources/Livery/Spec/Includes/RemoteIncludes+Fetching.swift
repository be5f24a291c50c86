extension RemoteIncludes {
    /// Fetches every allowed remote include that `sources` reach, and the ones those documents
    /// include in turn, into ``documents``; then `Spec.init(sources:roots:registry:limits:remoteIncludes:)`
    /// builds the spec without further I/O.
    ///
    /// Each round fetches what is missing concurrently; a round that finds nothing missing ends
    /// the loop. It always ends: every round adds at least one document and a spec reaches at
    /// most ``maxDocuments``. Refused URLs are never handed to the fetcher.
    public mutating func fetchDocuments(
        for sources: SpecSourceSet, roots: [String]? = nil, limits: ReaderLimits = .default,
        using fetcher: some RemoteIncludeFetcher
    ) async {
        while true {
            let missing = Spec.missingRemoteIncludes(sources, roots: roots, limits: limits, remoteIncludes: self)
            guard !missing.isEmpty else { return }
            let fetched = await withTaskGroup(of: (RemoteIncludeURL, FetchedInclude).self) { group in
                for url in missing {
                    group.addTask { (url, await fetcher.fetch(url)) }
                }
                var fetched: [(RemoteIncludeURL, FetchedInclude)] = []
                for await result in group { fetched.append(result) }
                return fetched
            }
            for (url, result) in fetched { documents[url] = result }
        }
    }
}
