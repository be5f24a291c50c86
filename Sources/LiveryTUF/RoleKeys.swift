/// A role in root metadata: the ids of its keys and how many of them must sign.
package struct RoleKeys: Codable, Hashable, Sendable {
    package var keyids: [String]
    package var threshold: Int

    package init(keyids: [String], threshold: Int = 1) {
        self.keyids = keyids
        self.threshold = threshold
    }
}
