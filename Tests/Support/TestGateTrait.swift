package import Testing

/// Holds a ``TestGate`` around each test of a suite (or around one test).
package struct TestGateTrait: SuiteTrait, TestTrait, TestScoping {
    /// The gate held.
    public var gate: TestGate
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
        try await gate.holding(exclusive: exclusive) { try await function() }
    }
}

extension Testing.Trait where Self == TestGateTrait {
    /// No in-process watcher of another suite runs during each test.
    package static var inotifyExclusive: Self { Self(gate: .inotify, exclusive: true) }
    /// Each test runs watchers of its own: it waits while an exclusive test runs.
    package static var inotifyShared: Self { Self(gate: .inotify, exclusive: false) }
    /// No other heavy test runs during each test (see ``TestGate/heavy``).
    package static var heavy: Self { Self(gate: .heavy, exclusive: true) }
}
