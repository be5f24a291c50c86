/// A target the provider styles: held weakly, with how to undo what it applied, newest last.
final class RegisteredTarget {
    weak var object: AnyObject?
    let id: ObjectIdentifier
    var identifier: String
    var undos: [Undo] = []

    init(_ object: AnyObject, identifier: String) {
        self.object = object
        self.id = ObjectIdentifier(object)
        self.identifier = identifier
    }

    /// Whether traits are applied (false after a failed registration, so a rollback does not
    /// re-apply what never was). Derived rather than stored: with 100,000 targets every word
    /// of this class counts, and an identifier without traits has nothing to re-apply anyway.
    var isStyled: Bool { !undos.isEmpty }

    /// Undoes the applied traits newest first and forgets them; returns how many it undid.
    @discardableResult
    func revertAll(on object: AnyObject) -> Int {
        // On a local copy: each access to a class's stored property is checked for exclusivity.
        var undone: [Undo] = []
        swap(&undone, &undos)
        let count = undone.count
        while let undo = undone.popLast() {
            undo.run(on: object)
        }
        undos = undone  // empty, keeping its storage for the next apply
        return count
    }
}
