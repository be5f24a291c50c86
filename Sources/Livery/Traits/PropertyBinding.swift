/// Sets one property of a ``PropertyTrait`` on objects of exactly one class.
///
/// Made once per (trait type, class) from the trait's ``TraitProperty``, so applying and
/// reverting cost a comparison of the object's class and the property's own accessors, not a
/// protocol conformance look-up, and take no reference to the object.
public final class PropertyBinding {
    private let boundClass: ObjectIdentifier
    private let kinds: [PropertyValue.Kind]
    private let exchangeValue: (AnyObject, UnsafePointer<PropertyValue?>) -> PropertyValue?
    private let assignValue: (AnyObject, consuming PropertyValue) -> Void

    /// Binds `exchange` and `assign` to objects of exactly the class `type`; both may downcast
    /// their object to `type` unchecked, and ignore a value of a kind other than `kinds`
    /// (`exchange` returns nil, as it does for no value).
    ///
    /// `exchange` reads its value where it lies: the provider's settings, which a load passes
    /// to every target, are not copied for each (a copy of a ``PropertyValue`` is an outlined
    /// copy and destroy, because of the text case).
    init(
        exactly type: AnyClass, takes kinds: [PropertyValue.Kind],
        exchange: @escaping (AnyObject, UnsafePointer<PropertyValue?>) -> PropertyValue?,
        assign: @escaping (AnyObject, consuming PropertyValue) -> Void
    ) {
        self.boundClass = ObjectIdentifier(type)
        self.kinds = kinds
        self.exchangeValue = exchange
        self.assignValue = assign
    }

    /// Whether ``exchange(_:_:)`` takes values of `kind`.
    func takes(_ kind: PropertyValue.Kind) -> Bool {
        kinds.contains(kind)
    }

    /// Sets the property of `object` to the value at `value` and returns the value it replaced;
    /// nil (and nothing changed) if `object` is not of the bound class, or there is no value or
    /// one of another type.
    func exchange(_ object: AnyObject, _ value: UnsafePointer<PropertyValue?>) -> PropertyValue? {
        // The class is compared first, so the downcast in the closure cannot be wrong.
        guard ObjectIdentifier(type(of: object)) == boundClass else { return nil }
        return exchangeValue(object, value)
    }

    /// Sets the property to `value`: how an undo puts back a value ``exchange(_:_:)`` replaced,
    /// and how a load sets a new value of a kind the binding takes in place of the one it set
    /// before. One write, where an exchange is a read and a write, each an access the runtime
    /// checks for exclusivity.
    ///
    /// The value is consumed: the closure, which knows its case, ends its life, where a caller
    /// that kept it would destroy it through `PropertyValue`'s outlined destroy (a switch over
    /// every case, because of the text case) on every undo.
    func assign(_ object: AnyObject, _ value: consuming PropertyValue) {
        guard ObjectIdentifier(type(of: object)) == boundClass else { return }
        assignValue(object, value)
    }
}
