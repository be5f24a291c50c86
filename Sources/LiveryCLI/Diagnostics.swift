import Foundation
import Livery

/// Spec errors name files relative to their specs folder; on a terminal they should name them
/// as the user wrote the folder, so that editors and terminals can jump to `file:line:column`.
enum Diagnostics {
    static func relative(_ error: SpecError, toFolder folder: String) -> SpecError {
        var error = error
        let file = error.location.file
        // Absolute paths, `<json>`-like sources and remote includes' URLs stay as they are.
        if !file.hasPrefix("/"), !file.hasPrefix("<"), !file.contains("://"), folder != "." {
            error.location.file = folder + "/" + file
        }
        return error
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
