/// Sets one property of a ``PropertyTrait`` on objects of exactly one class.
///
/// Made once per (trait type, class) from the trait's ``TraitProperty``, so applying and
/// reverting cost a comparison of the object's class and the property's own accessors, not a
/// protocol conformance look-up, and take no reference to the object.
public final class PropertyBinding {
    private let boundClass: ObjectIdentifier
    private let swap: (AnyObject, PropertyValue) -> PropertyValue?

    /// Binds `swap` to objects of exactly the class `type`; `swap` may downcast its object to
    /// `type` unchecked, and returns nil for a value of another type.
    init(exactly type: AnyClass, _ swap: @escaping (AnyObject, PropertyValue) -> PropertyValue?) {
        self.boundClass = ObjectIdentifier(type)
        self.swap = swap
    }

    /// Sets the property of `object` to `value` and returns the value it replaced; nil (and
    /// nothing changed) if `object` is not of the bound class or `value` is of another type.
    /// An undo is the same exchange with the replaced value.
    func exchange(_ object: AnyObject, _ value: PropertyValue) -> PropertyValue? {
        // The class is compared first, so the downcast in `swap` cannot be wrong.
        guard ObjectIdentifier(type(of: object)) == boundClass else { return nil }
        return swap(object, value)
    }
}
