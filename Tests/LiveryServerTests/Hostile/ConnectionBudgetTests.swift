import Testing

@testable import LiveryServer

/// The limits in force under a file limit, and the budget that counts against them.
@Suite struct ConnectionBudgetTests {
    @Test func theLimitsFitTheFileLimitWithDescriptorsAndConnectionsInReserve() {
        let defaults = ConnectionLimits()
        #expect(defaults.effective(fileLimit: 1_048_576) == defaults)
        let small = defaults.effective(fileLimit: 1024)
        #expect(small.maxConnections == 1024 - 64)
        #expect(small.maxHeldRequests == 1024 - 64 - 64)
        #expect(small.maxConnectionsPerPeer == small.maxConnections)
        #expect(small.maxHeldRequestsPerPeer == small.maxHeldRequests)
        let asked = ConnectionLimits(
            maxConnections: 100, maxConnectionsPerPeer: 10, maxHeldRequests: 90, maxHeldRequestsPerPeer: 5)
        #expect(
            asked.effective(fileLimit: 1024)
                == ConnectionLimits(
                    maxConnections: 100, maxConnectionsPerPeer: 10, maxHeldRequests: 36, maxHeldRequestsPerPeer: 5))
    }

    @Test func eachPeerAndAllTogetherStopAtTheirLimitAndGetTheirShareBack() {
        let budget = ConnectionBudget(
            limits: ConnectionLimits(
                maxConnections: 3, maxConnectionsPerPeer: 2, maxHeldRequests: 2, maxHeldRequestsPerPeer: 1))
        #expect(budget.takeConnection("a") && budget.takeConnection("a"))
        #expect(!budget.takeConnection("a"))
        #expect(budget.takeConnection("b"))
        #expect(!budget.takeConnection("c"))
        budget.giveBackConnection("a")
        #expect(budget.takeConnection("c"))
        #expect(budget.takeHeld("a") && !budget.takeHeld("a") && budget.takeHeld("b") && !budget.takeHeld("c"))
        budget.giveBackHeld("a")
        #expect(budget.takeHeld("c"))
        #expect(budget.open == (connections: 3, held: 2))
    }
}
