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
        // One address gets 512 connections and 256 held requests by default, fewer only when
        // the file limit leaves fewer for everyone.
        #expect(small.maxConnectionsPerPeer == 512)
        #expect(small.maxHeldRequestsPerPeer == 256)
        let tiny = defaults.effective(fileLimit: 200)
        #expect(tiny.maxConnectionsPerPeer == 200 - 64 && tiny.maxHeldRequestsPerPeer == 200 - 64 - 64)
        // Behind a proxy: one address may take everything the others could.
        let proxied = defaults.perPeerAsGlobal.effective(fileLimit: 1024)
        #expect(proxied.maxConnectionsPerPeer == proxied.maxConnections)
        #expect(proxied.maxHeldRequestsPerPeer == proxied.maxHeldRequests)
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
