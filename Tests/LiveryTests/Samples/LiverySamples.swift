import Foundation
import Livery
import LiveryTesting

// The Swift samples of the README and of Livery's catalogue, each word for word between its markers
// (Tests/Docs/check_docs.py holds the documents to them): compiled with the tests, so a sample
// that no longer builds fails the build. ContractTests runs the contract they show. This file
// imports no Swift Testing, whose `Trait` would hide Livery's.

@MainActor
func quickStartSample() throws {
    // sample: README.md
    final class Card: HasBackgroundColor, HasCornerRadius {
        var backgroundColor: Color = .white
        var cornerRadius: Double = 0
    }

    let provider = TraitsProvider()  // built-in traits from TraitRegistry.standard
    let card = Card()
    provider.register(card, as: "card")  // applies the current traits for "card", if any
    try provider.load(
        Spec(
            yaml: """
                specs:
                  card:
                    - type: BackgroundColor
                      color: "#FF0000"
                    - type: CornerRadius
                      radius: 8
                """))
    // card.backgroundColor == Color(hex: "#FF0000"), card.cornerRadius == 8
    try provider.load(Spec(json: #"{"specs": {"card": []}}"#))
    // card is back to .white and 0
    provider.unregister(card)
    // sample end
}

@MainActor
func landingPageSample(card: Card) throws {
    // sample: Sources/Livery/Livery.docc/Livery.md
    let provider = TraitsProvider()
    provider.register(card, as: "card")
    try provider.load(Spec(directory: URL(filePath: "Specs")))
    // sample end
}

// sample: Sources/Livery/Livery.docc/BuiltInTraits.md
final class RetryPolicy: Tweakable {
    var attempts = 3
    var timeout = 1.5
    static let tweakables: [String: Tweak<RetryPolicy>] = [
        "attempts": .keyPath(\.attempts),
        "timeout": .keyPath(\.timeout),
    ]
}
// sample end

/// The policy above with `attempts` declared by closures instead of a key path.
final class RetryPolicyByClosures: Tweakable {
    var attempts = 3
    var timeout = 1.5
    static let tweakables: [String: Tweak<RetryPolicyByClosures>] = [
        // sample: Sources/Livery/Livery.docc/BuiltInTraits.md
        "attempts": .property {
            swap(&$0.attempts, &$1)
        } assign: {
            $0.attempts = $1
        },
        // sample end
        "timeout": .keyPath(\.timeout),
    ]
}

func registerBlinkSample() throws {
    // sample: Sources/Livery/Livery.docc/WritingACustomTrait.md
    try TraitRegistry.standard.register(Blink.self)  // or TraitsProvider(registry: myRegistry)
    // sample end
}

/// The built-in `CornerRadius` as WritingACustomTrait shows it (in a namespace: the module's own is a different type).
enum DeclaredCornerRadius {
    // sample: Sources/Livery/Livery.docc/WritingACustomTrait.md
    public struct CornerRadius: PropertyTrait {
        public typealias Target = any HasCornerRadius
        public static let typeName = "CornerRadius"
        public var radius: Double
        public static let properties = [
            TraitProperty(
                "radius", \Self.radius, check: .atLeast(0),
                css: { [CSSDeclaration("border-radius", .pixels($0))] }
            ) {
                func binding(_ target: (some HasCornerRadius).Type) -> PropertyBinding {
                    target.binding {
                        swap(&$0.cornerRadius, &$1)
                    } assign: {
                        $0.cornerRadius = $1
                    }
                }
                return ($0 as? any HasCornerRadius.Type).map { binding($0) }
            }
        ]
    }
    // sample end
}

/// `Blink` declared by its property, as WritingACustomTrait shows it.
enum DeclaredBlink {
    // sample: Sources/Livery/Livery.docc/WritingACustomTrait.md
    struct Blink: PropertyTrait {
        typealias Target = Cursor
        static let typeName = "Blink"
        var interval: Double
        static let properties = [
            TraitProperty("interval", \Blink.interval) {
                swap(&$0.blinkInterval, &$1)
            } assign: {
                $0.blinkInterval = $1
            }
        ]
    }
    // sample end
}

func checkBlinkSample() throws {
    // sample: Sources/Livery/Livery.docc/WritingACustomTrait.md
    try TraitConformance.checkReversal(
        of: [Blink(interval: 0.2), Blink(interval: 1)], on: Cursor(), state: { $0.blinkInterval })
    // sample end
}
