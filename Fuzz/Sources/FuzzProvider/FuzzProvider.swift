import Foundation
import FuzzSupport
import Livery
import LiveryTesting

/// A spec from bytes (JSON if it starts with `{`, else YAML), loaded into a provider with
/// `StyledBox` targets under its first identifiers and `card`; then each theme, no theme, a
/// late registration, second targets under the same identifiers (one released, one registered
/// after), and finally an empty spec. Checks the engine's guarantees under arbitrary
/// specs: a refused load or theme switch changes nothing, and after the empty spec every box is
/// exactly as it was before the first load.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    let format = FuzzInput.format(of: data)
    guard let spec = try? Spec(data: data, format: format, source: "fuzz." + format.rawValue) else { return 0 }

    let provider = TraitsProvider()
    var identifiers = Array(spec.identifiers.prefix(4))
    if !identifiers.contains("card") { identifiers.append("card") }
    let boxes = identifiers.map { _ in StyledBox() }
    let original = boxes.map(\.snapshot)
    for (box, identifier) in zip(boxes, identifiers) { provider.register(box, as: identifier) }

    func attempt(_ what: String, _ body: () throws -> Void) {
        let before = boxes.map(\.snapshot)
        do {
            try body()
        } catch {
            fuzzCheck(error is SpecError, "\(what) threw \(type(of: error)), not a SpecError: \(error)")
            fuzzCheck(sameState(boxes.map(\.snapshot), before), "\(what) failed (\(error)) but changed targets")
        }
    }

    attempt("load") { try provider.load(spec) }
    for theme in spec.themes.prefix(2) { attempt("setTheme(\(theme))") { try provider.setTheme(theme) } }
    attempt("setTheme(nil)") { try provider.setTheme(nil) }

    // A target registered late gets the current traits; unregistering reverts them.
    if let identifier = identifiers.first {
        let late = StyledBox()
        let fresh = late.snapshot
        provider.register(late, as: identifier)
        provider.unregister(late)
        fuzzCheck(sameState(late.snapshot, fresh), "unregistering '\(identifier)' did not restore the target")
    }

    // A second target under each identifier, the first of them released: the provider keeps
    // several targets per identifier, skips and frees the one that is gone, and reuses its slot
    // for a target registered after it, across an empty spec and the spec again.
    var extras = identifiers.map { _ in StyledBox() }
    let fresh = extras.map(\.snapshot)
    for (box, identifier) in zip(extras, identifiers) { provider.register(box, as: identifier) }
    extras.removeFirst()
    do {
        try provider.load(Spec(yaml: "specs: {}"))
    } catch {
        fuzzCheck(false, "loading the empty spec over a released target failed: \(error)")
    }
    attempt("load over a released target") { try provider.load(spec) }
    let reused = StyledBox()
    extras.append(reused)
    provider.register(reused, as: identifiers[0])

    do {
        try provider.load(Spec(yaml: "specs: {}"))
    } catch {
        fuzzCheck(false, "loading the empty spec failed: \(error)")
    }
    for (index, box) in boxes.enumerated() {
        fuzzCheck(
            sameState(box.snapshot, original[index]),
            "'\(identifiers[index])' not restored:\n\(box.snapshot)\nexpected\n\(original[index])")
    }
    for (index, box) in extras.enumerated() {
        fuzzCheck(sameState(box.snapshot, fresh[0]), "a second target (#\(index)) not restored:\n\(box.snapshot)")
    }
    return 0
}
