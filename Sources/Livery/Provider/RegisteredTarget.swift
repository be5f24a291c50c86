/// A target the provider styles: held weakly, with the reversals of what it applied, newest last.
final class RegisteredTarget {
    weak var object: AnyObject?
    let id: ObjectIdentifier
    var identifier: String
    var reversals: [ErasedReversal] = []

    init(_ object: AnyObject, identifier: String) {
        self.object = object
        self.id = ObjectIdentifier(object)
        self.identifier = identifier
    }

    /// Whether traits are applied (false after a failed registration, so a rollback does not
    /// re-apply what never was). Derived rather than stored: with 100,000 targets every word
    /// of this class counts, and an identifier without traits has nothing to re-apply anyway.
    var isStyled: Bool { !reversals.isEmpty }

    /// Runs the reversals newest first and forgets them; returns how many ran.
    @discardableResult
    func revertAll(on object: AnyObject) -> Int {
        // On a local copy: each access to a class's stored property is checked for exclusivity.
        var undone = reversals
        reversals = []
        let count = undone.count
        while let reversal = undone.popLast() {
            reversal.revert(object)
        }
        reversals = undone  // empty, keeping its storage for the next apply
        return count
    }
}
