package import Livery
package import LiveryWatch

/// Everything the demo reacts to, merged into one stream so one loop owns the provider and the
/// targets (they are not `Sendable`, and need not be).
package enum DemoEvent: Sendable {
    /// The specs folder changed: a new spec, or why the change was rejected.
    case specs(Update<Spec>)
    /// A key was pressed (one byte of input).
    case key(UInt8)
    /// The terminal changed size.
    case resize
    /// The daemon stopped on its own (it failed); the demo goes on without it.
    case daemonStopped(String)
    /// SIGTERM, SIGINT or SIGHUP: quit.
    case quit
}
