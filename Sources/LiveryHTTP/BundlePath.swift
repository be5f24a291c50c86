/// The URLs of the bundle, defined once: the raw path's request lines
/// (``BundleRequestScan``), the reader of parsed requests, the daemon's route table, the read
/// routes of ``CrossOriginPolicy`` and the metrics' route names all derive from this type.
package enum BundlePath: Sendable, Equatable {
    /// `/v1/spec` or `/v1/css`: the current version in that form.
    case current(BundleForm)
    /// `/v1/spec/{etag}` or `/v1/css/{etag}`: one kept version, named by its tag without quotes.
    case version(BundleForm, tag: String)
    /// `/v1/version`: the version signal.
    case versionSignal

    /// The version signal's path.
    package static let versionSignalPath = "/v1/version"

    /// Every route pattern of the bundle, as the router writes them (`{etag}` a parameter).
    package static let patterns: [String] =
        BundleForm.allCases.flatMap { [$0.path, $0.path + "/{etag}"] } + [versionSignalPath]

    /// Reads a request's path (without its query); `nil` for any other path.
    package init?(path: some StringProtocol) {
        if path == Self.versionSignalPath {
            self = .versionSignal
            return
        }
        for form in BundleForm.allCases where path.hasPrefix(form.path) {
            let rest = path.dropFirst(form.path.count)
            if rest.isEmpty {
                self = .current(form)
                return
            }
            guard rest.first == "/", case let tag = rest.dropFirst(), !tag.isEmpty, !tag.contains("/") else {
                return nil
            }
            self = .version(form, tag: String(tag))
            return
        }
        return nil
    }

    /// The route pattern this path belongs to: the name the metrics count it under.
    package var pattern: String {
        switch self {
        case .current(let form): form.path
        case .version(let form, _): form.path + "/{etag}"
        case .versionSignal: Self.versionSignalPath
        }
    }
}

/// The two forms of a version of the bundle.
package enum BundleForm: Sendable, Equatable, CaseIterable {
    /// The spec as JSON.
    case bundle
    /// The spec as CSS.
    case styleSheet

    /// The path of the current version in this form; a kept version's is this, `/` and its tag.
    package var path: String {
        switch self {
        case .bundle: "/v1/spec"
        case .styleSheet: "/v1/css"
        }
    }
}
