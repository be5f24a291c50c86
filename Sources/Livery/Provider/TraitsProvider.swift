public import Logging

/// Owns the registered targets and the current spec, and keeps the two in step.
///
/// Loading a spec reverts the traits that changed (newest first) and applies the new ones, all
/// or nothing: if anything fails, every target is left exactly as before and the previous spec
/// stays current. Only identifiers whose resolved traits changed are touched.
///
/// A spec read with ``UnknownTraitPolicy/skipIdentifier`` may leave out identifiers that use a
/// trait type this provider's registry does not know: those keep exactly the traits they have,
/// every other identifier is loaded all or nothing as usual, and each skipped one is in the
/// ``LoadReport`` and logged as a warning.
///
/// ## Isolation
///
/// A provider is not `Sendable`. Like the objects it styles, it belongs to the isolation
/// domain that created it (the main actor in a UI program, an actor or a task elsewhere) and
/// is used only from there; Swift 6's region checks enforce this. ``Spec`` is `Sendable`, so
/// specs are parsed anywhere (a watcher thread, a network task) and handed to the provider's
/// domain to load.
public final class TraitsProvider {
    /// The trait types this provider decodes specs with.
    public let registry: TraitRegistry
    /// The spec currently applied, if any.
    public private(set) var spec: Spec?
    /// The active theme (nil: the spec's base variables).
    public private(set) var theme: String?

    let logger: Logger
    var currentResolution = Resolution.empty
    /// Every registered target, by slot; a freed slot is reused by the next registration.
    ///
    /// Not checked for exclusivity at run time. A load holds one access to the array open while
    /// it restyles, and the runtime compares every access a target's own accessors begin (two
    /// per property set) with each access open on the thread, so that one cost every property
    /// of every target a few instructions more. The provider's own rule makes the check moot:
    /// nothing may call back into it while traits apply (``isApplying``).
    @exclusivity(unchecked) var slots: [TargetSlot] = []
    private var freeSlots: [Int] = []
    private var slotByObject: [ObjectIdentifier: Int] = [:]
    var slotsByIdentifier: [String: IdentifierTargets] = [:]
    /// The slots of `currentResolution`'s identifiers by position, when ``placementIsCurrent``.
    var placement = Placement.empty
    /// Whether ``placement`` was made for the current resolution's order and the registrations
    /// as they are now.
    var placementIsCurrent = false
    /// Set while traits apply or revert: a trait must not call back into the provider then.
    var isApplying = false
    private var capabilitiesByClass: [ObjectIdentifier: ClassCapabilities] = [:]
    private var observers: [Int: (LoadReport) -> Void] = [:]
    private var nextObserver = 0

    /// Creates a provider with no spec and no targets.
    ///
    /// - Parameters:
    ///   - registry: the trait types specs may use; ``TraitRegistry/standard`` by default.
    ///   - logger: where registration failures and rollbacks are logged; nothing is logged if nil.
    public init(registry: TraitRegistry = .standard, logger: Logger = .discarding) {
        self.registry = registry
        self.logger = logger
    }

    // MARK: Targets

    /// Registers `target` under `identifier` and applies the current traits for it at once.
    ///
    /// Registering again under another identifier reverts the old traits first. The provider
    /// holds targets weakly. If the traits cannot apply (the target lacks a capability, a trait
    /// throws), the target is left untouched and the error is logged and returned.
    @discardableResult
    public func register(_ target: AnyObject, as identifier: String) -> SpecError? {
        precondition(!isApplying, Self.reentrancy)
        let id = ObjectIdentifier(target)
        if let existing = slotByObject[id] {
            if slots[existing].object === target, slots[existing].identifier == identifier { return nil }
            forget(existing)
        }
        let slot = TargetSlot(target, identifier: identifier, capabilities: capabilities(of: target))
        let index: Int
        if let free = freeSlots.popLast() {
            index = free
            slots[index] = slot
        } else {
            index = slots.count
            slots.append(slot)
        }
        slotByObject[id] = index
        slotsByIdentifier[identifier, default: .one(index)].insert(index)
        placementIsCurrent = false
        do throws(SpecError) {
            try applyTraits(of: currentResolution, toSlot: index, object: target)
            return nil
        } catch {
            logger.error(
                "traits not applied", metadata: ["livery.identifier": "\(identifier)", "livery.error": "\(error)"])
            return error
        }
    }

    /// Registers `target` under a typed identifier, such as a case of the enum that
    /// `livery identifiers` generates: `provider.register(title, as: Identifier.cardTitle)`.
    @discardableResult
    public func register<Identifier: RawRepresentable<String>>(
        _ target: AnyObject, as identifier: Identifier
    ) -> SpecError? {
        register(target, as: identifier.rawValue)
    }

    /// Reverts `target`'s traits and stops styling it.
    public func unregister(_ target: AnyObject) {
        precondition(!isApplying, Self.reentrancy)
        guard let index = slotByObject[ObjectIdentifier(target)], slots[index].object === target else { return }
        forget(index)
    }

    /// The identifier `target` is registered under, if it is.
    public func identifier(of target: AnyObject) -> String? {
        guard let index = slotByObject[ObjectIdentifier(target)], slots[index].object === target else { return nil }
        return slots[index].identifier
    }

    /// How many registered targets are still alive.
    public var targetCount: Int {
        slotByObject.values.count { slots[$0].object != nil }
    }

    /// Which trait types apply to `object`'s class. Looked up once per registration and kept in
    /// the target's slot; a class never changes.
    func capabilities(of object: AnyObject) -> ClassCapabilities {
        let type: any AnyObject.Type = Swift.type(of: object)
        if let known = capabilitiesByClass[ObjectIdentifier(type)] { return known }
        let created = ClassCapabilities()
        capabilitiesByClass[ObjectIdentifier(type)] = created
        return created
    }

    /// Calls `body` with slot `index` in place, marked as applying.
    @discardableResult
    func withSlot<Result, Failure: Error>(
        _ index: Int, _ body: (UnsafeMutablePointer<TargetSlot>) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        isApplying = true
        defer { isApplying = false }
        return try slots.withUnsafeMutableBufferPointer { slots throws(Failure) in
            try body(slots.baseAddress! + index)
        }
    }

    private func forget(_ index: Int) {
        if let object = slots[index].object {
            withSlot(index) { slot in slot.pointee.revertAll(on: object) }
        }
        drop(index)
    }

    /// Whether slot `index` holds a registration (it is not free).
    func isRegistered(_ index: Int) -> Bool {
        slotByObject[slots[index].id] == index
    }

    /// Frees a slot without reverting: its object is gone, or has just been reverted.
    func drop(_ index: Int) {
        let id = slots[index].id
        let identifier = slots[index].identifier
        if slotByObject[id] == index { slotByObject[id] = nil }
        if slotsByIdentifier[identifier]?.remove(index) == true { slotsByIdentifier[identifier] = nil }
        slots[index].object = nil
        slots[index].identifier = ""
        slots[index].undos = []
        slots[index].appliedTraits = 0
        freeSlots.append(index)
        placementIsCurrent = false
    }

    static let reentrancy =
        "a trait's apply or reversal must not register, unregister or load on the provider applying it"

    // MARK: Specs and themes

    /// Makes `spec` current: reverts the traits that changed, newest first, and applies the new
    /// ones. All or nothing: on error every target is as before and the previous spec stays.
    ///
    /// If the active theme is not in the new spec, the provider falls back to no theme.
    @discardableResult
    public func load(_ spec: Spec) throws -> LoadReport {
        precondition(!isApplying, Self.reentrancy)
        let spec = try spec.decoded(with: registry)
        var theme = self.theme
        if let active = theme, !spec.themes.contains(active) {
            logger.warning(
                "the active theme is not in the new spec; using no theme", metadata: ["livery.theme": "\(active)"])
            theme = nil
        }
        let report = try transition(keepingSkippedOf: spec.resolution(for: theme) ?? .empty, theme: theme)
        self.spec = spec
        self.theme = theme
        notify(report)
        return report
    }

    /// Switches the theme (nil: none), atomically like a load. An unknown theme is an error at
    /// the place that asked for it: the caller's source line, unless the caller passes its own.
    @discardableResult
    public func setTheme(
        _ name: String?, file: String = #filePath, line: Int = #line, column: Int = #column
    ) throws -> LoadReport {
        precondition(!isApplying, Self.reentrancy)
        guard name != theme else { return LoadReport(theme: theme) }
        let known = spec?.themes ?? []
        guard let spec, let next = spec.resolution(for: name) else {
            let hint =
                name.flatMap { Suggestion.closest(to: $0, in: known) }.map { "did you mean '\($0)'?" }
                ?? (known.isEmpty
                    ? "the current spec defines no themes"
                    : "expected " + known.map { "'\($0)'" }.joined(separator: ", "))
            throw SpecError(
                .unknownTheme, at: SourceLocation(file: file, line: line, column: column),
                "unknown theme '\(name ?? "")'; \(hint)")
        }
        let report = try transition(keepingSkippedOf: next, theme: name)
        theme = name
        notify(report)
        return report
    }

    /// Moves to `next`, where identifiers that use an unknown trait type keep their current
    /// traits; reports and logs each of them.
    private func transition(keepingSkippedOf next: Resolution, theme: String?) throws -> LoadReport {
        let (kept, skipped) = next.keepingSkipped(from: currentResolution)
        var report = try transition(to: kept, theme: theme)
        report.skippedIdentifiers = skipped
        for skip in skipped {
            logger.warning(
                "identifier kept on its last good traits: unknown trait type",
                metadata: [
                    "livery.identifier": "\(skip.identifier)", "livery.traitType": "\(skip.traitType)",
                    "livery.location": "\(skip.location)",
                ])
        }
        return report
    }

    // MARK: Observing

    /// Calls `observer` after every successful load or theme switch that changed something.
    @discardableResult
    public func addObserver(_ observer: @escaping (LoadReport) -> Void) -> ObserverToken {
        nextObserver += 1
        observers[nextObserver] = observer
        return ObserverToken(id: nextObserver)
    }

    /// Stops calling an observer.
    public func removeObserver(_ token: ObserverToken) {
        observers[token.id] = nil
    }

    private func notify(_ report: LoadReport) {
        for observer in observers.values { observer(report) }
    }
}

/// Identifies an observer added with ``TraitsProvider/addObserver(_:)``.
public struct ObserverToken: Hashable, Sendable {
    let id: Int
}
