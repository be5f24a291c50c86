/// A trait that is not a ``PropertyTrait`` with a form in CSS: what it does to a Swift target,
/// written as declarations on the elements a stylesheet selects by identifier (`GET /v1/css`,
/// `livery css`).
///
/// A ``PropertyTrait`` writes its CSS form in its declaration, as each ``TraitProperty``'s
/// `css:`, and does not adopt this protocol. `Set` adopts it next to its `apply(to:)`, and so does
/// a custom trait with its own `apply(to:)`:
///
/// ```swift
/// extension Blink: CSSTrait {
///     var cssDeclarations: [CSSDeclaration] { [.custom("blink-interval", .number(interval))] }
/// }
/// ```
///
/// A trait type with neither form is named at the top of the stylesheet and in the daemon's log,
/// never dropped in silence.
public protocol CSSTrait: Trait {
    /// The declarations this trait makes, in order (a later one wins, as a later trait does on
    /// a Swift target). Empty when it sets nothing CSS shows (`Hidden` with `hidden: false`).
    var cssDeclarations: [CSSDeclaration] { get }
}
