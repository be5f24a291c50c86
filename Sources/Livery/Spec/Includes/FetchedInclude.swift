public import Foundation

/// What fetching a remote include gave: a document to read, or why there is none.
public enum FetchedInclude: Sendable, Hashable {
    /// A 2xx body, within the size limit, and the format it is in (from the URL's extension,
    /// else the `Content-Type`).
    case document(Data, SpecFormat)
    /// Why nothing can be read, in a few words (`404 Not Found`, `no answer within 5 s`): the
    /// include's location then reports `cannot fetch URL: reason`.
    case failed(String)
}
