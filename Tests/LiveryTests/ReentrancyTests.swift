import Livery
import LiveryTesting
import Testing

/// A trait that registers an object on the provider applying it, which a trait must not do.
struct RegisterWhileApplying: Livery.Trait {
    static let typeName = "RegisterWhileApplying"
    var flag: Bool

    /// The provider the trait calls back into; set by the one test that uses it, in a process
    /// of its own.
    nonisolated(unsafe) static var provider: TraitsProvider?

    func apply(to target: any HasCornerRadius) throws -> Reversal<any HasCornerRadius> {
        Self.provider?.register(StyledBox(), as: "other")
        return .none
    }
}

@Suite struct ReentrancyTests {
    /// A load's slots are worked on in place; a trait that registers a target meanwhile would
    /// change them under it. The provider stops the program with a message instead.
    @Test func aTraitThatCallsBackIntoTheProviderStopsTheProgram() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let registry = TraitRegistry()
            try registry.register(RegisterWhileApplying.self)
            let provider = TraitsProvider(registry: registry)
            RegisterWhileApplying.provider = provider
            let box = StyledBox()
            provider.register(box, as: "card")
            try provider.load(
                Spec(yaml: "specs:\n  card:\n    - { type: RegisterWhileApplying, flag: true }\n", registry: registry))
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("must not register, unregister or load on the provider applying it"), "\(message)")
    }

    /// The same trait on a provider it does not call back into applies as usual.
    @Test func theSameTraitOnAnotherProviderApplies() throws {
        let registry = TraitRegistry()
        try registry.register(RegisterWhileApplying.self)
        let provider = TraitsProvider(registry: registry)
        let box = StyledBox()
        provider.register(box, as: "card")
        let report = try provider.load(
            Spec(yaml: "specs:\n  card:\n    - { type: RegisterWhileApplying, flag: true }\n", registry: registry))
        #expect(report.traitsApplied == 1)
    }
}
