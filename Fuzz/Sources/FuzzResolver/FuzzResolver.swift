import Foundation
import FuzzSupport
import Livery

/// Resolver documents (Resolver Module 2025.10): the bytes split at NUL into
/// `r.resolver.json` and the token files it can name, `a.tokens.json` and `b.tokens.json`; sets,
/// modifiers with their contexts and defaults, inline sources, `$ref`s to files and into the
/// document, the resolution order, and the themes the contexts and their combinations become.
///
/// Besides not crashing: the checks of FuzzTokens (validate agrees with the initialiser, located
/// errors, the bundle, the tokens export of the base and of each theme, the stylesheets).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    let (sources, paths) = TokenChecks.sources(
        from: data, names: ["r.resolver.json", "a.tokens.json", "b.tokens.json"])
    if let spec = SpecChecks.checkFolder(sources, roots: nil, files: paths) {
        TokenChecks.checkSpec(spec, context: "resolver")
    }
    return 0
}
