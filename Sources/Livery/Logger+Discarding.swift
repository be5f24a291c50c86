public import Logging

extension Logger {
    /// What Livery's types log to when their caller gives them no logger: nothing. Libraries
    /// take the caller's logger and never make one that writes (swift-log's guidance); this one
    /// only stands in for "none given", so the code logs unconditionally instead of through an
    /// optional.
    @usableFromInline package static let discarding = Logger(label: "livery.discarding") { _ in
        SwiftLogNoOpLogHandler()
    }
}
