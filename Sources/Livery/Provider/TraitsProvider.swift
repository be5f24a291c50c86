import Logging

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
    private var targets: [ObjectIdentifier: RegisteredTarget] = [:]
    var targetsByIdentifier: [String: IdentifierTargets] = [:]
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
        let id = ObjectIdentifier(target)
        if let existing = targets[id] {
            if existing.object === target, existing.identifier == identifier { return nil }
            forget(existing)
        }
        let entry = RegisteredTarget(target, identifier: identifier)
        targets[id] = entry
        if targetsByIdentifier[identifier] == nil {
            targetsByIdentifier[identifier] = .one(entry)
        } else {
            targetsByIdentifier[identifier]?.insert(entry)
        }
        do throws(SpecError) {
            let list = currentResolution.list(for: identifier) ?? .empty
            let plan = try plan(list.traits, entry: entry, object: target, capabilities(of: target))
            try apply(list, plan, to: entry, object: target)
            return nil
        } catch {
            logger.error("traits not applied", metadata: ["livery.identifier": "\(identifier)", "error": "\(error)"])
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
        guard let entry = targets[ObjectIdentifier(target)], entry.object === target else { return }
        forget(entry)
    }

    /// The identifier `target` is registered under, if it is.
    public func identifier(of target: AnyObject) -> String? {
        guard let entry = targets[ObjectIdentifier(target)], entry.object === target else { return nil }
        return entry.identifier
    }

    /// How many registered targets are still alive.
    public var targetCount: Int {
        targets.values.count { $0.object != nil }
    }

    /// Which trait types apply to `object`'s class. Looked up rather than kept on every entry: a
    /// dictionary look-up per restyled target is cheap beside the traits it applies.
    func capabilities(of object: AnyObject) -> ClassCapabilities {
        let type: any AnyObject.Type = Swift.type(of: object)
        if let known = capabilitiesByClass[ObjectIdentifier(type)] { return known }
        let created = ClassCapabilities()
        capabilitiesByClass[ObjectIdentifier(type)] = created
        return created
    }

    private func forget(_ entry: RegisteredTarget) {
        if let object = entry.object { entry.revertAll(on: object) }
        drop(entry)
    }

    /// Removes an entry without reverting: its object is gone, or has just been reverted.
    func drop(_ entry: RegisteredTarget) {
        if targets[entry.id] === entry { targets[entry.id] = nil }
        if targetsByIdentifier[entry.identifier]?.remove(entry) == true { targetsByIdentifier[entry.identifier] = nil }
    }

    // MARK: Specs and themes

    /// Makes `spec` current: reverts the traits that changed, newest first, and applies the new
    /// ones. All or nothing: on error every target is as before and the previous spec stays.
    ///
    /// If the active theme is not in the new spec, the provider falls back to no theme.
    @discardableResult
    public func load(_ spec: Spec) throws -> LoadReport {
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
