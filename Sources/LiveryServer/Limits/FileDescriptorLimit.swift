#if canImport(Glibc)
import Glibc
#endif

/// The process's limit on open files (`RLIMIT_NOFILE`). A service gets a soft limit of 1,024 by
/// default (systemd's, and most shells'), far below its hard limit; like nginx
/// (`worker_rlimit_nofile`) and etcd, the daemon raises the soft limit to the hard one at start.
enum FileDescriptorLimit {
    /// The limits before and after raising.
    struct Raised: Sendable {
        /// The soft limit found at start.
        var before: Int
        /// The soft limit now: the hard limit, unless raising failed.
        var soft: Int
        /// The hard limit.
        var hard: Int
    }

    /// Raises the soft limit to the hard one (or `nr_open`'s cap when the hard one is
    /// unlimited); on failure keeps the soft limit and says so in `error`.
    static func raise() -> (limits: Raised, error: Int32?) {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else {
            return (Raised(before: 1024, soft: 1024, hard: 1024), errno)
        }
        let before = Self.count(limit.rlim_cur)
        // An unlimited hard limit cannot be the soft one: the kernel caps it at fs.nr_open.
        let target = limit.rlim_max == Self.unlimited ? rlim_t(1 << 20) : limit.rlim_max
        if limit.rlim_cur < target {
            var raised = limit
            raised.rlim_cur = target
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 {
                return (Raised(before: before, soft: Self.count(target), hard: Self.count(limit.rlim_max)), nil)
            }
            return (Raised(before: before, soft: before, hard: Self.count(limit.rlim_max)), errno)
        }
        return (Raised(before: before, soft: before, hard: Self.count(limit.rlim_max)), nil)
    }

    /// `RLIM_INFINITY` (all bits set on Linux), which Swift does not import.
    private static let unlimited = rlim_t.max

    private static func count(_ value: rlim_t) -> Int {
        value == Self.unlimited || value > rlim_t(Int.max) ? Int.max : Int(value)
    }
}
