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
    check(sources, roots: nil, paths: paths)
    if let first = files.first { check(sources, roots: [first.path], paths: paths) }
    return 0
}

private func check(_ sources: SpecSourceSet, roots: [String]?, paths: Set<String>) {
    let context = "roots \(roots ?? ["<all>"])"
    let errors = Spec.validate(sources, roots: roots)
    for error in errors { SpecChecks.checkLocation(error, files: paths, context: "validate, \(context)") }
    do {
        let spec = try Spec(sources: sources, roots: roots)
        fuzzCheck(errors.isEmpty, "\(context): Spec(sources:) succeeded but validate found \(errors)")
        fuzzCheck(Set(spec.files).isSubset(of: paths), "\(context): files \(spec.files) not in \(paths.sorted())")
        SpecChecks.checkSpec(spec, context: "Spec(sources:), \(context)")
    } catch {
        SpecChecks.checkError(error, files: paths, context: "Spec(sources:), \(context)")
        fuzzCheck(!errors.isEmpty, "\(context): Spec(sources:) threw \(error) but validate found nothing")
        fuzzCheck(
            "\(error)" == errors.first.map { "\($0)" },
            "\(context): Spec(sources:) threw '\(error)', validate's first error is '\(errors[0])'")
    }
}
