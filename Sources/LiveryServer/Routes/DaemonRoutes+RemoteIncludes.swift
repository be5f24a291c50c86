import Livery

extension DaemonRoutes {
    /// Runs a push's change, fetching the allowed remote includes it needs in between tries.
    ///
    /// The store validates and writes inside its actor without awaiting anything, so two pushes
    /// still cannot interleave; the fetching happens out here, between tries. Each try either
    /// writes or names URLs not fetched yet, so the loop ends: a spec reaches at most
    /// ``Livery/RemoteIncludes/maxDocuments`` of them.
    func changeFetchingIncludes(
        _ change: (RemoteIncludes) async throws(PushError) -> SpecStore.ChangeOutcome
    ) async throws(PushError) -> SpecStore.WriteResult {
        var remote = RemoteIncludes(allowList: configuration.allowedIncludes)
        while true {
            switch try await change(remote) {
            case .written(let result):
                return result
            case .needsFetching(let urls):
                let before = remote.documents.count
                for url in urls where remote.documents[url] == nil {
                    remote.documents[url] = await fetch(url)
                }
                // Cannot happen (the store names only URLs without a document); a guard all the same.
                guard remote.documents.count > before else {
                    throw .fileSystem("remote includes could not be fetched: \(urls.map(\.description).joined(separator: ", "))")
                }
            }
        }
    }

    private func fetch(_ url: RemoteIncludeURL) async -> FetchedInclude {
        guard let fetcher = configuration.includeFetcher else {
            return .failed("this daemon has no fetcher for remote includes")
        }
        return await fetcher.fetch(url)
    }
}
