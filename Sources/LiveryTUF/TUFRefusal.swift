/// A refusal by one of the TUF client workflow's checks: `check` names it (`timestamp expired`,
/// `snapshot rollback`, `target hash`…, the names livery.js gives too), `detail` says what was
/// found and what was expected.
package struct TUFRefusal: Error, Equatable, CustomStringConvertible {
    package let check: String
    package let detail: String

    package init(_ check: String, _ detail: String) {
        self.check = check
        self.detail = detail
    }

    package var description: String { "\(check): \(detail)" }
}
