import Foundation
import FuzzSupport
import Livery

/// Bytes split at NUL into up to three files (`a`, `b`, `sub/c`, each `.json` or `.yaml` by its
/// content) → `SpecSourceSet` → `Spec.validate(_:)` and `Spec(sources:)`, for all files and for
/// `a` alone as the root: includes, duplicates across files, themes across files.
///
/// Besides not crashing: `validate` is empty exactly when the initialiser succeeds, the
/// initialiser throws `validate`'s first error, every error is located in one of the files,
/// and a good spec's bundle loads back.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    var sources = SpecSourceSet()
    let files = FuzzInput.files(from: data)
    for file in files {
        do {
            try sources.set(file.path, to: file.data)
        } catch {
            fuzzCheck(false, "set('\(file.path)') refused a valid path: \(error)")
        }
    }
    let paths = Set(files.map(\.path))
    SpecChecks.checkFolder(sources, roots: nil, files: paths)
    if let first = files.first { SpecChecks.checkFolder(sources, roots: [first.path], files: paths) }
    return 0
}
