package import Foundation
package import LiveryTUF

/// Signed delivery as `livery serve --signing DIR [--timestamp-expiry D] [--offline-targets]`
/// asks for it.
package struct DaemonSigning: Sendable {
    /// The folder `livery signing init` made: the daemon serves its root metadata.
    package var folder: SigningFolder
    /// The online keys and lifetimes the daemon signs with.
    package var roles: OnlineRoles
    /// The wall clock expiry is computed from; tests give their own.
    package var now: @Sendable () -> Date = { Date() }
    /// How often the daemon checks whether the timestamp is due for re-signing.
    package var checkInterval: Duration = .seconds(60)

    /// Whether the targets key is kept offline: every write then carries its targets metadata,
    /// signed by the writer (``OfferedTargets``), and the daemon signs snapshot and timestamp only.
    package var offlineTargets: Bool { roles.targetsKey == nil }

    /// Reads the online keys of `folder`, each checked against its newest root metadata;
    /// timestamps are valid for `timestampLifetime` (1 day by default). With `offlineTargets`
    /// the folder must hold no targets key (``LiveryTUF/SigningFolder/onlineRoles(timestampLifetime:offlineTargets:)``).
    package init(folder: SigningFolder, timestampLifetime: TimeInterval = 86_400, offlineTargets: Bool = false) throws {
        self.folder = folder
        roles = try folder.onlineRoles(timestampLifetime: timestampLifetime, offlineTargets: offlineTargets)
    }
}
