import Configuration
import Foundation
public import Livery
package import LiveryRemote
public import Logging
import Synchronization

/// A swift-configuration provider whose values are a spec's variables: typed, validated, themed
/// and live, from a specs folder or a `livery serve` daemon.
///
/// ```swift
/// let settings = try SpecConfigProvider(directory: URL(filePath: "Specs"), logger: logger)
/// let config = ConfigReader(provider: settings)
/// let timeout = config.int(forKey: "http.timeout", default: 30)
/// // Run it as a service to follow the folder (or the daemon) as it changes:
/// let group = ServiceGroup(services: [settings, server], logger: logger)
/// ```
///
/// Values live in the spec's `variables` (see ``SpecValues`` for keys and types), so themes,
/// `@references`, `~functions` and includes apply to them as to everything else. A change that
/// does not load or resolve is logged and kept in ``lastError``; the last good values stay. Watchers
/// (`config.watchInt(forKey:)`, `watchSnapshot`) get the current value at once and then each
/// change of it, as swift-configuration's reloading providers do.
public final class SpecConfigProvider: Sendable {
    /// Where new specs come from.
    package enum Source: Sendable {
        case fixed
        /// A source another module adds (the folder, in `LiveryConfigurationFolder`), so that a
        /// program following only a daemon links no watcher.
        case followed(any FollowedSpecSource)
        case remote(RemoteSpecSource)
    }

    struct State {
        var spec: Spec
        var values: SpecValues
        var lastError: (any Error)?
        var valueWatchers: [UUID: ValueWatcher] = [:]
        var snapshotWatchers: [UUID: AsyncStream<any ConfigSnapshot>.Continuation] = [:]
    }

    struct ValueWatcher {
        var key: AbsoluteConfigKey
        var type: ConfigType
        var last: Result<LookupResult, any Error>
        var continuation: AsyncStream<Result<LookupResult, any Error>>.Continuation
    }

    /// The name in swift-configuration's access logs and errors.
    public let providerName: String
    let source: Source
    let logger: Logger
    let state: Mutex<State>

    /// A provider of `spec`'s values under `theme`; it changes only through ``load(_:)`` and
    /// ``setTheme(_:)``.
    ///
    /// - Throws: `SpecError` when a variable does not resolve or the theme is unknown.
    public convenience init(
        spec: Spec, theme: String? = nil, providerName: String = "LiverySpec",
        logger: Logger = Logger(label: "livery.configuration") { _ in SwiftLogNoOpLogHandler() }
    ) throws(SpecError) {
        try self.init(spec: spec, theme: theme, providerName: providerName, source: .fixed, logger: logger)
    }

    package init(spec: Spec, theme: String?, providerName: String, source: Source, logger: Logger) throws(SpecError) {
        let values = try SpecValues(spec: spec, theme: theme, providerName: providerName)
        self.providerName = providerName
        self.source = source
        self.logger = logger
        state = Mutex(State(spec: spec, values: values))
    }

    /// The active theme (nil: none).
    public var theme: String? { state.withLock { $0.values.theme } }

    /// The error that kept the newest change out, or nil when the newest change loaded.
    public var lastError: (any Error)? { state.withLock { $0.lastError } }

    /// Makes `spec` current, all or nothing: if its values do not resolve, the error is kept in
    /// ``lastError`` and thrown, and the last good values stay. If the active theme is not in
    /// `spec`, the values fall back to no theme, as `TraitsProvider` does.
    public func load(_ spec: Spec) throws(SpecError) {
        try update { state throws(SpecError) in
            let theme = state.values.theme.flatMap { spec.themes.contains($0) ? $0 : nil }
            return (spec, try SpecValues(spec: spec, theme: theme, providerName: providerName))
        }
    }

    /// Switches the theme (nil: none) for the current spec, atomically.
    ///
    /// - Throws: `SpecError` for a theme the spec does not define or a value that does
    ///   not resolve under it; the values stay as they were.
    public func setTheme(_ theme: String?) throws(SpecError) {
        try update { state throws(SpecError) in
            (state.spec, try SpecValues(spec: state.spec, theme: theme, providerName: providerName))
        }
    }

    /// Replaces the spec and values with what `next` makes of the state, then tells the watchers
    /// whose values changed (outside the lock, as swift-configuration's providers do).
    private func update(_ next: (State) throws(SpecError) -> (Spec, SpecValues)) throws(SpecError) {
        let notifications: [@Sendable () -> Void]
        do throws(SpecError) {
            notifications = try state.withLock { (state) throws(SpecError) -> [@Sendable () -> Void] in
                let (spec, values) = try next(state)
                let changed = !values.hasSameValues(as: state.values) || values.theme != state.values.theme
                state.spec = spec
                state.values = values
                state.lastError = nil
                guard changed else { return [] }
                return Self.notifications(for: &state)
            }
        } catch {
            state.withLock { $0.lastError = error }
            logger.error("spec values rejected; keeping the last good values", metadata: ["livery.error": "\(error)"])
            throw error
        }
        for notify in notifications { notify() }
        logger.debug("spec values updated", metadata: ["livery.watchers": "\(notifications.count)"])
    }

    /// Records a failure that kept a change out before it became a spec (a bad file, a fetch error).
    func reject(_ error: any Error) {
        state.withLock { $0.lastError = error }
        logger.error("spec change rejected; keeping the last good values", metadata: ["livery.error": "\(error)"])
    }

    private static func notifications(for state: inout State) -> [@Sendable () -> Void] {
        var notifications: [@Sendable () -> Void] = []
        let values = state.values
        for (id, var watcher) in state.valueWatchers {
            let now = Result { try values.value(forKey: watcher.key, type: watcher.type) }
            guard !sameResult(watcher.last, now) else { continue }
            watcher.last = now
            state.valueWatchers[id] = watcher
            let continuation = watcher.continuation
            notifications.append { continuation.yield(now) }
        }
        for continuation in state.snapshotWatchers.values {
            notifications.append { continuation.yield(values) }
        }
        return notifications
    }

    private static func sameResult(
        _ lhs: Result<LookupResult, any Error>, _ rhs: Result<LookupResult, any Error>
    ) -> Bool {
        switch (lhs, rhs) {
        case (.success(let a), .success(let b)): a == b
        case (.failure(let a), .failure(let b)): "\(a)" == "\(b)"
        default: false
        }
    }
}
