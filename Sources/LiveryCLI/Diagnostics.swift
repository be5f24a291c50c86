import Foundation
import Livery
import LiveryServer

/// Spec errors name files relative to their specs folder; on a terminal they should name them
/// as the user wrote the folder, so that editors and terminals can jump to `file:line:column`.
/// Every place of an error — its location and those its message names — follows the same rule
/// (``SpecFileNaming``).
enum Diagnostics {
    /// `error` with every file named under `folder`, as the user wrote it.
    static func relative(_ error: SpecError, toFolder folder: String) -> SpecError {
        error.named(SpecFileNaming(folder: folder))
    }

    /// `error` as one or more lines for a terminal: spec errors in compiler style, then a note
    /// for each trait type this `livery` does not know.
    static func describe(_ error: any Error, folder: String) -> String {
        let errors: [SpecError]
        switch error {
        case let error as SpecError: errors = [error]
        case let list as SpecErrors: errors = list.errors
        default: return "livery: \(error)"
        }
        let lines = errors.map { relative($0, toFolder: folder).description } + UnknownTraitNote.notes(for: errors)
        return lines.joined(separator: "\n")
    }
}
