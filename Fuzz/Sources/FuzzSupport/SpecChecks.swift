import Foundation
import Livery

/// The properties every fuzz target checks on a spec it built or failed to build.
public enum SpecChecks {
    /// An error a reader or the resolver threw must be a ``SpecError`` with a 1-based location
    /// in one of `files`.
    public static func checkError(_ error: any Error, files: Set<String>, context: String) {
        guard let error = error as? SpecError else {
            fuzzCheck(false, "\(context) threw \(type(of: error)), not a SpecError: \(error)")
            return
        }
        checkLocation(error, files: files, context: context)
    }

    /// The error's location is 1-based and names one of `files`.
    public static func checkLocation(_ error: SpecError, files: Set<String>, context: String) {
        fuzzCheck(
            error.location.line >= 1 && error.location.column >= 1,
            "\(context): error location is not 1-based: \(error)")
        fuzzCheck(
            files.contains(error.location.file),
            "\(context): error names '\(error.location.file)', not one of \(files.sorted()): \(error)")
    }

    /// Reads every part of a good spec, and checks that its bundle is itself a good spec with
    /// the same identifiers and themes whose bundle is the same text (the contract of
    /// `GET /v1/spec`: clients load the bundle with `Spec(json:)`).
    public static func checkSpec(_ spec: Spec, context: String) {
        for identifier in spec.identifiers {
            _ = spec.traits(for: identifier)
            for theme in spec.themes { _ = spec.traits(for: identifier, theme: theme) }
        }
        let bundle = spec.bundleJSON
        let again: Spec
        do {
            again = try Spec(json: bundle, source: "bundle.json")
        } catch let error as SpecError where error.code == .limitExceeded {
            // Aliases expand in the bundle: a small YAML file can make a bundle over the limits.
            return
        } catch {
            fuzzCheck(false, "\(context): the bundle of a good spec does not load: \(error)\nbundle: \(bundle)")
            return
        }
        fuzzCheck(
            again.identifiers == spec.identifiers,
            "\(context): bundle identifiers \(again.identifiers) != \(spec.identifiers)")
        fuzzCheck(again.themes == spec.themes, "\(context): bundle themes \(again.themes) != \(spec.themes)")
        fuzzCheck(
            again.bundleJSON == bundle,
            "\(context): the bundle is not stable:\n\(bundle)\n\(again.bundleJSON)")
    }

    /// `Spec.validate(_:roots:)` and `Spec(sources:roots:)` on `sources` agree: `validate` is
    /// empty exactly when the initialiser succeeds, and the initialiser throws `validate`'s first
    /// error; every error is located in one of `files`, and a good spec passes ``checkSpec(_:context:)``.
    /// Returns the spec when it loads.
    @discardableResult
    public static func checkFolder(_ sources: SpecSourceSet, roots: [String]?, files: Set<String>) -> Spec? {
        let context = "roots \(roots ?? ["<all>"])"
        let errors = Spec.validate(sources, roots: roots)
        for error in errors { checkLocation(error, files: files, context: "validate, \(context)") }
        do {
            let spec = try Spec(sources: sources, roots: roots)
            fuzzCheck(errors.isEmpty, "\(context): Spec(sources:) succeeded but validate found \(errors)")
            fuzzCheck(Set(spec.files).isSubset(of: files), "\(context): files \(spec.files) not in \(files.sorted())")
            checkSpec(spec, context: "Spec(sources:), \(context)")
            return spec
        } catch {
            checkError(error, files: files, context: "Spec(sources:), \(context)")
            fuzzCheck(!errors.isEmpty, "\(context): Spec(sources:) threw \(error) but validate found nothing")
            fuzzCheck(
                "\(error)" == errors.first.map { "\($0)" },
                "\(context): Spec(sources:) threw '\(error)', validate's first error is '\(errors[0])'")
            return nil
        }
    }
}
