import Foundation
@_spi(LiveryInternal) import LiveryHTTP
import Synchronization

/// The keys a daemon accepts, and which of them a request carries.
///
/// Two kinds: the fixed ones it was started with (`--token-file`, an admin key on every
/// environment named `token-file`; `--read-token-file`, a read key on every environment named
/// `read-token-file`), and the stored ones (``KeyRecord``) that `POST /v1/keys` adds and
/// `DELETE /v1/keys/{name}` revokes, of which only the SHA-256 is kept. A request's key is
/// hashed and compared with every stored hash in constant time.
final class KeyRing: Sendable {
    /// A key given on the command line.
    private struct FixedKey: Sendable {
        var grant: KeyGrant
        var token: BearerToken
    }

    private struct State: Sendable {
        var records: [String: KeyRecord] = [:]
        /// Each record's hash as bytes, for the comparisons.
        var digests: [(name: String, bytes: [UInt8])] = []
        /// When each key was last seen, in memory, to the minute.
        var lastUsed: [String: Date] = [:]
        /// Whether ``lastUsed`` has news the storage has not been told.
        var usageChanged = false
    }

    /// The name of the `--token-file` key.
    package static let tokenFileName = "token-file"
    /// The name of the `--read-token-file` key.
    package static let readTokenFileName = "read-token-file"
    /// How coarse ``KeyRecord/lastUsed`` is.
    static let usageResolution: TimeInterval = 60

    private let fixed: [FixedKey]
    private let state = Mutex(State())
    private let now: @Sendable () -> Date

    /// A ring with the fixed keys: `token` (admin), and `readToken` (read) when given.
    package init(token: BearerToken, readToken: BearerToken?, now: @escaping @Sendable () -> Date = Date.init) {
        var fixed = [
            FixedKey(
                grant: KeyGrant(name: Self.tokenFileName, scopes: [.admin], environments: [KeyGrant.everyEnvironment]),
                token: token)
        ]
        if let readToken {
            fixed.append(
                FixedKey(
                    grant: KeyGrant(
                        name: Self.readTokenFileName, scopes: [.read], environments: [KeyGrant.everyEnvironment]),
                    token: readToken))
        }
        self.fixed = fixed
        self.now = now
    }

    /// The names no stored key may take: those of the command line's keys, given or not.
    package var reservedNames: Set<String> { [Self.tokenFileName, Self.readTokenFileName] }

    /// The key `authorization` (an `Authorization` value's bytes) carries, if the ring knows it.
    package func grant(of authorization: UnsafeRawBufferPointer) -> KeyGrant? {
        if let key = fixed.first(where: { $0.token.authorizes(authorization) }) { return key.grant }
        guard let offered = Self.bearerKey(authorization) else { return nil }
        let digest = SHA256.digest(offered)
        return state.withLock { state -> KeyGrant? in
            var found: String?
            for (name, bytes) in state.digests {
                var difference: UInt8 = 0
                for index in bytes.indices { difference |= bytes[index] ^ digest[index] }
                if difference == 0 { found = name }
            }
            guard let found, let record = state.records[found] else { return nil }
            let time = now()
            if state.lastUsed[found].map({ time.timeIntervalSince($0) >= Self.usageResolution }) ?? true {
                state.lastUsed[found] = time
                state.usageChanged = true
            }
            return record.grant
        }
    }

    /// The key a parsed `Authorization` value carries.
    package func grant(of authorization: String?) -> KeyGrant? {
        guard var authorization else { return nil }
        return authorization.withUTF8 { grant(of: UnsafeRawBufferPointer($0)) }
    }

    /// The stored keys, by name, with their last use as this daemon saw it.
    package var records: [KeyRecord] {
        state.withLock { state in
            state.records.values.map { record in
                var record = record
                if let seen = state.lastUsed[record.grant.name] {
                    let text = seen.formatted(.iso8601)
                    if record.lastUsed.map({ $0 < text }) ?? true { record.lastUsed = text }
                }
                return record
            }.sorted { $0.grant.name < $1.grant.name }
        }
    }

    /// Every key that can be listed: the fixed ones (without dates) and the stored ones.
    package var fixedGrants: [KeyGrant] { fixed.map(\.grant) }

    /// Replaces the stored keys with `records` (as the storage holds them now).
    package func replace(with records: [KeyRecord]) {
        state.withLock { state in
            state.records = Dictionary(records.map { ($0.grant.name, $0) }, uniquingKeysWith: { _, last in last })
            state.digests = state.records.values.compactMap { record in
                Self.bytes(ofHex: record.sha256).map { (record.grant.name, $0) }
            }
            state.lastUsed = state.lastUsed.filter { state.records[$0.key] != nil }
        }
    }

    /// Whether keys were used since the last call, which then forgets it.
    package func takeUsageChanged() -> Bool {
        state.withLock { state in
            defer { state.usageChanged = false }
            return state.usageChanged
        }
    }

    /// The key after `Bearer ` (any case) in `authorization`.
    private static func bearerKey(_ authorization: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer? {
        let scheme = Array("bearer ".utf8)
        guard authorization.count > scheme.count else { return nil }
        for index in scheme.indices {
            let byte = authorization[index]
            guard ((0x41...0x5A).contains(byte) ? byte | 0x20 : byte) == scheme[index] else { return nil }
        }
        return UnsafeRawBufferPointer(rebasing: authorization[scheme.count...])
    }

    /// 32 bytes from 64 hex digits; `nil` for anything else (a damaged record matches no key).
    private static func bytes(ofHex hex: String) -> [UInt8]? {
        let digits = Array(hex.utf8)
        guard digits.count == 64 else { return nil }
        var bytes: [UInt8] = []
        for index in stride(from: 0, to: 64, by: 2) {
            guard let byte = UInt8(String(decoding: digits[index...index + 1], as: UTF8.self), radix: 16) else {
                return nil
            }
            bytes.append(byte)
        }
        return bytes
    }
}
