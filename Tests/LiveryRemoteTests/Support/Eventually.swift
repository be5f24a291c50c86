import Testing

/// Waits until `condition` holds, or records an issue after `limit`.
func eventually(
    within limit: Duration = .seconds(10),
    isolation: isolated (any Actor)? = #isolation,
    sourceLocation: Testing.SourceLocation = #_sourceLocation,
    _ condition: () async throws -> Bool
) async throws {
    let clock = ContinuousClock()
    let deadline = clock.now + limit
    while clock.now < deadline {
        if try await condition() { return }
        try await Task.sleep(for: .milliseconds(20))
    }
    Issue.record("condition not met in \(limit)", sourceLocation: sourceLocation)
}
