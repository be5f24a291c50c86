import Foundation
import FuzzSupport
import Livery

/// Design tokens documents (Format Module 2025.10): the bytes split at NUL into
/// `a.tokens.json`, `b.tokens.json` and a spec `c.yaml` that can use their tokens as variables;
/// every type, aliases `{…}`, `$ref` JSON Pointers, `$extends` and groups, across the files.
///
/// Besides not crashing: what `Spec.validate` finds agrees with `Spec(sources:)`, every error is
/// located in one of the files, a good spec's bundle loads back (``SpecChecks``); its tokens
/// export reads back as a tokens document with every token, each theme's too, and its
/// stylesheets keep every value in its declaration (``TokenChecks``).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    let (sources, paths) = TokenChecks.sources(from: data, names: ["a.tokens.json", "b.tokens.json", "c.yaml"])
    if let spec = SpecChecks.checkFolder(sources, roots: nil, files: paths) {
        TokenChecks.checkSpec(spec, context: "tokens")
    }
    return 0
}
