package import Testing

/// Holds the process's ``InotifyTestGate`` around each test of a suite:
/// exclusively for tests that count the shared inotify owner's watches, shared for tests that
/// run watchers (in-process daemons) of their own.
package struct InotifyGateTrait: SuiteTrait, TestTrait, TestScoping {
    /// Whether the gate is held exclusively.
    public var exclusive: Bool

    /// Applies to every test of the suite.
    public var isRecursive: Bool { true }

    /// Each test case, never the suite as a whole (a suite holding the gate exclusively would
    /// keep its own tests out).
    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        test.isSuite || testCase == nil ? nil : self
    }

    /// Runs the test holding the gate.
    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        try await InotifyTestGate.holding(exclusive: exclusive) { try await function() }
    }
}

extension Testing.Trait where Self == InotifyGateTrait {
    /// No in-process watcher of another suite runs during each test.
    package static var inotifyExclusive: Self { Self(exclusive: true) }
    /// Each test runs watchers of its own: it waits while an exclusive test runs.
    package static var inotifyShared: Self { Self(exclusive: false) }
}
