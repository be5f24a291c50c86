import AsyncHTTPClient
import Foundation
import LiveryHTTP
import NIOHTTP1

extension RemoteSpecSource.Configuration {
    /// A request to the daemon as every request of a source is made: the configured headers, the
    /// read token, and `header` as `Livery-Client`.
    func request(_ method: HTTPMethod, _ url: URL, reporting header: LiveryClientHeader) -> HTTPClientRequest {
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = method
        for (name, value) in headers { request.headers.replaceOrAdd(name: name, value: value) }
        if let readToken { request.headers.replaceOrAdd(name: "Authorization", value: readToken.authorizationHeader) }
        request.headers.replaceOrAdd(name: LiveryClientHeader.fieldName, value: header.fieldValue)
        return request
    }
}
