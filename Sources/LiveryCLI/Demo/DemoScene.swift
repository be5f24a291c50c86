package import Livery

/// The demo's terminal UI as targets: a screen, and on it a card with a title, a body, a button
/// and a badge. Their values before any spec applies are a plain grey look, which is what the
/// provider restores when a spec stops styling them.
package final class DemoScene {
    package let screen = DemoPanel(backgroundColor: Color(red: 40, green: 40, blue: 40))
    package let card = DemoPanel(backgroundColor: Color(red: 80, green: 80, blue: 80))
    package let title = DemoLabel("Livery")
    package let body = DemoLabel("Edit a spec, or push one, and this card restyles at once.")
    package let button = DemoButton("Try it")
    package let badge = DemoBadge("live")

    package init() {}

    /// The identifiers of `Specs/card.yaml`, and the targets registered under them.
    package var targets: [(identifier: String, target: AnyObject)] {
        [
            ("screen", screen), ("card", card), ("card.title", title), ("card.body", body),
            ("card.button", button), ("card.badge", badge),
        ]
    }

    /// Registers every target; the errors of those whose current traits could not apply.
    @discardableResult
    package func register(on provider: TraitsProvider) -> [SpecError] {
        targets.compactMap { provider.register($0.target, as: $0.identifier) }
    }
}
