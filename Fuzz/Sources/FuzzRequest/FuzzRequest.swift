import Foundation
import FuzzSupport

/// Bytes → an HTTP request (request line, headers, body) → every interpreter the daemon runs on
/// raw request strings: the `/v1/specs/{path}` path and its rules, `If-None-Match` / `If-Match`,
/// `Last-Event-ID`, `?wait=`, `Authorization` and `Livery-Client` (the raw reader of plain
/// bundle requests has its own target, `FuzzBundleScan`). Each is checked against its contract
/// (``RequestChecks``), not only for crashes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let request = RawRequest(Data(bytes: start, count: count))
    RequestChecks.checkPath(request.path)
    RequestChecks.checkConditions(request, body: request.body)
    for value in request.values(of: "last-event-id") {
        RequestChecks.checkLastEventID(value, body: request.body)
    }
    for (name, value) in request.query {
        if let value { RequestChecks.checkWait(value, strict: name == "wait") }
    }
    RequestChecks.checkAuthorization(request.values(of: "authorization"), tokens: request.values(of: "x-token"))
    for value in request.values(of: "livery-client") { RequestChecks.checkClientHeader(value) }
    return 0
}
