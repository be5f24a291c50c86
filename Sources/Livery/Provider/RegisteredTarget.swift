/// A target the provider styles: held weakly, with the reversals of what it applied, newest last.
final class RegisteredTarget {
    weak var object: AnyObject?
    let id: ObjectIdentifier
    /// The object's class, for the provider's capability cache.
    let classID: ObjectIdentifier
    let typeName: String
    var identifier: String
    var reversals: [ErasedReversal] = []
    /// Whether the current traits for `identifier` are applied (false after a failed
    /// registration, so a rollback does not re-apply what never was).
    var isStyled = false

    init(_ object: AnyObject, identifier: String) {
        self.object = object
        self.id = ObjectIdentifier(object)
        self.classID = ObjectIdentifier(type(of: object))
        self.typeName = String(describing: type(of: object))
        self.identifier = identifier
    }

    /// Runs the reversals newest first and forgets them; returns how many ran.
    @discardableResult
    func revertAll(on object: AnyObject) -> Int {
        let count = reversals.count
        while let reversal = reversals.popLast() {
            reversal.revert(object)
        }
        isStyled = false
        return count
    }
}
