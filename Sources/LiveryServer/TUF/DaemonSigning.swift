package import Foundation
package import LiveryTUF

/// Signed delivery as `livery serve --signing DIR [--timestamp-expiry D]` asks for it.
package struct DaemonSigning: Sendable {
    /// The folder `livery signing init` made: the daemon serves its root metadata.
    package var folder: SigningFolder
    /// The online keys and lifetimes the daemon signs with.
    package var roles: OnlineRoles
    /// The wall clock expiry is computed from; tests give their own.
    package var now: @Sendable () -> Date = { Date() }
    /// How often the daemon checks whether the timestamp is due for re-signing.
    package var checkInterval: Duration = .seconds(60)

    /// Reads the online keys of `folder`, each checked against its newest root metadata;
    /// timestamps are valid for `timestampLifetime` (1 day by default).
    package init(folder: SigningFolder, timestampLifetime: TimeInterval = 86_400) throws {
        self.folder = folder
        roles = try folder.onlineRoles(timestampLifetime: timestampLifetime)
    }
}
