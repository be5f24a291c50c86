import Foundation
import FuzzSupport
import Livery
@_spi(LiveryInternal) import LiveryHTTP

/// An OpenFeature evaluation as the daemon receives it (`RawRequest`): its path read by
/// `EnvironmentPath` (the environment it addresses, and the route), a single evaluation's flag
/// key as the answer writes it, and the body read by `OFREPContext`.
///
/// Besides not crashing: a path that names an environment is written back by
/// `EnvironmentPath.path` exactly as it came, and a default route of each valid name in the query
/// splits back to that name and route; `isValidName` agrees with a reference on scalars; the
/// key's JSON (a string `SpecNode`'s `canonicalJSON`, as the evaluation writes it) reads back to the
/// key; and the body reader agrees with a reference on Livery's strict JSON reader's tree: it accepts
/// exactly the bodies whose `context` is absent, null or an object whose `theme` and
/// `targetingKey` are absent, null or strings (a non-empty key), reads the same values, and refuses
/// the others with the protocol's code and a message; a body that is not JSON at all (a number
/// with a leading zero, anywhere) is a `PARSE_ERROR`, and JSON the strict reader refuses for what
/// it holds (a duplicate key) gets no verdict. A targeting key's cohort bucket is in 0..<10,000.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let request = RawRequest(Data(bytes: start, count: count))
    let route = OFREPChecks.checkPath(request.path, names: request.query.compactMap(\.value))
    let evaluate = "/ofrep/v1/evaluate/flags/"
    if route.hasPrefix(evaluate) {
        let raw = String(route.dropFirst(evaluate.count))
        OFREPChecks.checkKey(raw.removingPercentEncoding ?? raw)
    }
    OFREPChecks.checkContext(request.body)
    return 0
}
