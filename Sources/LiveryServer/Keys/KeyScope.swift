/// What a key may do. Each route of the daemon states the one scope it needs
/// (``DaemonRoutes/Route/scope``); ``admin`` holds every other scope too.
package enum KeyScope: String, Codable, CaseIterable, Sendable, Comparable {
    /// Read the specs, bundles, status and fleet, where the daemon requires a key to read.
    case read
    /// Write spec files (`PUT`/`DELETE /v1/specs/…`, publishes, restores, Tokens Studio).
    case push
    /// Start, change, complete or abort a staged rollout.
    case rollout
    /// Promote one environment's files to another.
    case promote
    /// Approve a change request.
    case approve
    /// Manage environments and keys; holds every scope.
    case admin

    /// Whether a key with this scope may do what `needed` allows.
    package func grants(_ needed: KeyScope) -> Bool { self == needed || self == .admin }

    /// Whether the scope changes what clients apply, so that `--read-only` refuses it.
    package var changesSpecs: Bool {
        switch self {
        case .push, .rollout, .promote, .approve: true
        case .read, .admin: false
        }
    }

    package static func < (lhs: KeyScope, rhs: KeyScope) -> Bool {
        allCases.firstIndex(of: lhs) ?? 0 < allCases.firstIndex(of: rhs) ?? 0
    }
}
