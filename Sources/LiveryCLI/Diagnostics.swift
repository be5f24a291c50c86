import Foundation
import Livery

/// Spec errors name files relative to their specs folder; on a terminal they should name them
/// as the user wrote the folder, so that editors and terminals can jump to `file:line:column`.
/// Every place of an error — its location and those its message names — follows the same rule
/// (``SpecFileNaming``).
enum Diagnostics {
    /// `error` with every file named under `folder`, as the user wrote it.
    static func relative(_ error: SpecError, toFolder folder: String) -> SpecError {
        error.named(SpecFileNaming(folder: folder))
    }

    /// `error` as one or more lines for a terminal: spec errors in compiler style.
    static func describe(_ error: any Error, folder: String) -> String {
        switch error {
        case let error as SpecError: relative(error, toFolder: folder).description
        case let errors as SpecErrors: errors.errors.map { relative($0, toFolder: folder).description }.joined(separator: "\n")
        default: "livery: \(error)"
        }
    }
}
