package import Livery

/// What to do about a trait type a `livery` does not know: the spec may well be right, and the
/// program that reads it registers the type; then the tools, and the daemon, must be built with
/// that registry too. `livery validate`, `watch` and `push` print these notes; the daemon puts
/// them in its 422 answers and its log.
package enum UnknownTraitNote {
    /// One note per distinct unknown trait type among `errors` (code name and message), in order
    /// of first appearance; `knower` names who lacks the types ("this livery", "the daemon").
    /// A type with a close known name is most likely a typo, which the error's own "did you
    /// mean" already covers, so it gets no note.
    public static func notes(for errors: [(code: String, message: String)], knower: String = "this livery") -> [String]
    {
        var seen: Set<String> = []
        return errors.compactMap { error in
            guard let name = unknownTypeName(code: error.code, message: error.message), seen.insert(name).inserted
            else { return nil }
            return "note: \(knower) knows no trait type '\(name)'; if your program registers it, build your own "
                + "livery with LiveryCommand.main(registry:) on that registry (README, \"Your own traits\")"
        }
    }

    /// The notes for spec errors found by this process.
    public static func notes(for errors: [SpecError], knower: String = "this livery") -> [String] {
        notes(for: errors.map { ($0.code.name, $0.message) }, knower: knower)
    }

    /// The type name of an unknown-trait error that suggests no known type.
    public static func unknownTypeName(code: String, message: String) -> String? {
        let prefix = "unknown trait type '"
        guard code == SpecError.Code.unknownTrait.name, message.hasPrefix(prefix), message.hasSuffix("'") else {
            return nil
        }
        let name = message.dropFirst(prefix.count).dropLast()
        return name.isEmpty || name.contains("'") ? nil : String(name)
    }
}
