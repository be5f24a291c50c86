/// Sets one ``PropertyTrait``'s property on objects of one class.
///
/// Made once per (trait type, class) from the class's conformance to the capability protocol,
/// so applying and reverting cost a comparison of the object's class and the property's own
/// accessor, not a protocol conformance look-up, and take no reference to the object.
final class PropertyBinding {
    /// Sets the property of `object` to `value` and returns the value it replaced; nil (and
    /// nothing changed) if `object` is not of the bound class or `value` is of another type.
    let exchange: (AnyObject, PropertyValue) -> PropertyValue?
    /// Sets the property of `object` to `value`, a value `exchange` returned: how an undo puts it
    /// back. One write, where an exchange reads and writes in one access that the target's
    /// accessor must track for exclusivity, which costs more than a plain write.
    let assign: (AnyObject, PropertyValue) -> Void

    /// Binds `exchange` and `assign` to objects of exactly the class `Target`. The trait writes
    /// them with its concrete value type, so only the class is generic and a call looks up no
    /// generic metadata.
    init<Target: AnyObject>(
        _: Target.Type, exchange: @escaping (Target, PropertyValue) -> PropertyValue?,
        assign: @escaping (Target, PropertyValue) -> Void
    ) {
        // The class is compared first, so the downcasts below cannot be wrong.
        self.exchange = { object, value in
            guard type(of: object) == Target.self else { return nil }
            return exchange(unsafeDowncast(object, to: Target.self), value)
        }
        self.assign = { object, value in
            guard type(of: object) == Target.self else { return }
            assign(unsafeDowncast(object, to: Target.self), value)
        }
    }
}
