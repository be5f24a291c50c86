/// A trait with a form in CSS: what it sets on a Swift target, written as declarations on the
/// elements a stylesheet selects by identifier (`GET /v1/css`, `livery css`).
///
/// A trait that only sets properties (``PropertyTrait``) writes its CSS form in its declaration
/// instead, as each ``TraitProperty``'s `css:`; the other built-ins (`Border`, `DropShadow`,
/// `Font`, `Set`) adopt this protocol next to their `apply(to:)`. A custom trait opts in the
/// same way:
///
/// ```swift
/// extension Blink: CSSTrait {
///     var cssDeclarations: [CSSDeclaration] { [.custom("blink-interval", .number(interval))] }
/// }
/// ```
///
/// A trait type that does not adopt it is named at the top of the stylesheet and in the
/// daemon's log, never dropped in silence.
public protocol CSSTrait: Trait {
    /// The declarations this trait makes, in order (a later one wins, as a later trait does on
    /// a Swift target). Empty when it sets nothing CSS shows (`Hidden` with `hidden: false`).
    var cssDeclarations: [CSSDeclaration] { get }
}
