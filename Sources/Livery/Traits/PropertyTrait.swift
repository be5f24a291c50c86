/// A trait that sets properties of its target and does nothing else, declared by its
/// ``properties``.
///
/// The declaration is the whole trait: `apply(to:)` and its reversal come with the protocol,
/// the checks on its fields run where a spec is read, and the JSON Schema and Livery Studio
/// read its fields. The provider applies such a trait on its fast path: through a
/// ``PropertyBinding`` made once per (trait type, target class), the replaced values kept inline
/// in the target's undo records, with no cast per apply and no closure per applied trait.
///
/// ```swift
/// public struct CornerRadius: PropertyTrait {
///     public typealias Target = any HasCornerRadius
///     public static let typeName = "CornerRadius"
///     public var radius: Double
///     public static let properties = [
///         TraitProperty("radius", \Self.radius, check: .atLeast(0)) {
///             func binding(_ target: (some HasCornerRadius).Type) -> PropertyBinding {
///                 target.binding { swap(&$0.cornerRadius, &$1) } assign: { $0.cornerRadius = $1 }
///             }
///             return ($0 as? any HasCornerRadius.Type).map { binding($0) }
///         }
///     ]
/// }
/// ```
public protocol PropertyTrait: Trait {
    /// The properties the trait sets, in the order it sets them.
    static var properties: [TraitProperty<Self>] { get }
}

extension PropertyTrait {
    /// Sets each property whose field is given, in order; the reversal puts back the values
    /// they replaced, newest first. The provider's fast path follows the same bindings.
    public func apply(to target: Target) throws -> Reversal<Target> {
        let object = target as AnyObject
        var replaced: [(binding: PropertyBinding, old: PropertyValue)] = []
        for property in Self.properties {
            guard let setting = property.setting(self) else { continue }
            guard let binding = property.binding(type(of: object)),
                let old = withUnsafePointer(to: Optional(setting), { binding.exchange(object, $0) })
            else {
                Self.restore(replaced, on: object)
                throw UnboundProperty(trait: Self.typeName, field: property.field, target: "\(type(of: object))")
            }
            replaced.append((binding, old))
        }
        return Reversal { Self.restore(replaced, on: $0 as AnyObject) }
    }

    private static func restore(_ replaced: [(binding: PropertyBinding, old: PropertyValue)], on object: AnyObject) {
        for (binding, old) in replaced.reversed() {
            binding.assign(object, old)
        }
    }
}

/// A ``PropertyTrait`` whose property cannot be set on its own `Target`: its declaration's
/// binding does not cover the class.
struct UnboundProperty: Error, CustomStringConvertible {
    var trait: String
    var field: String
    var target: String

    var description: String {
        "the declaration of \(trait) sets '\(field)' through a binding that does not cover \(target)"
    }
}

extension PropertyTrait {
    /// The field specs write for `value`, one of the trait's stored properties, as its
    /// ``properties`` declare it: code that writes the trait's fields (token conversion) reads
    /// them here, so a renamed field cannot drift from its declaration.
    ///
    /// Every stored property a built-in trait sets is one of its properties; asking for another
    /// is a mistake in Livery's own code, which its tests catch.
    static func field(_ value: PartialKeyPath<Self>) -> String {
        guard let property = properties.first(where: { ($0.value as AnyKeyPath) == value }) else {
            preconditionFailure("\(typeName) declares no property for \(value)")
        }
        return property.field
    }
}
