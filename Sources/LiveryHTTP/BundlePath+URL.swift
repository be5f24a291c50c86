package import Foundation

extension BundlePath {
    /// The URL of one version of the bundle in `form` under `base`: `/v1/spec/{etag}` or
    /// `/v1/css/{etag}`. Defined once because a shared cache keys its entries by the request's
    /// bytes: the daemon warming a front (``urlForm(of:)``) must ask for exactly the URL its
    /// clients will ask for.
    /// `environment` names the environment whose version it is (`nil`: the default one).
    package static func versionURL(_ base: URL, form: BundleForm, etag: String, environment: String? = nil) -> URL {
        EnvironmentPath.url(base, route: form.path, environment: environment).appending(component: urlForm(of: etag))
    }

    /// An ETag as it appears in URLs: a strong tag without its quotes, anything else as it is.
    package static func urlForm(of etag: String) -> String {
        guard etag.count >= 2, etag.first == "\"", etag.last == "\"" else { return etag }
        return String(etag.dropFirst().dropLast())
    }
}
