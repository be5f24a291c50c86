import Foundation
import FuzzSupport
import Livery

/// Bytes → `Spec(data:format:source:)` in both formats: parse, resolve every theme, decode every
/// trait through the standard registry. Errors are fine; a crash, a non-`SpecError` error, an
/// error outside the file, or a good spec whose bundle does not load back is a finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    for format in SpecFormat.allCases {
        let source = "fuzz." + format.rawValue
        let spec: Spec
        do {
            spec = try Spec(data: data, format: format, source: source)
        } catch {
            SpecChecks.checkError(error, files: [source], context: "Spec(data:format: .\(format))")
            continue
        }
        SpecChecks.checkSpec(spec, context: "Spec(data:format: .\(format))")
    }
    return 0
}
