import Synchronization

/// The name of a spec source as ``SourceLocation`` holds it, shared by every location in the
/// source without reference counting.
///
/// A reader names every node and key with its source, and nodes are copied as they are walked,
/// checked and merged. Held as a `String`, a name longer than a string keeps inline (15 UTF-8
/// bytes: `large.tokens.json` is 17) would be retained and released with every copy of every
/// node, an atomic operation each time. So names are kept in one table for the life of the
/// process, and a location refers to its name's entry without retaining it: entries are never
/// freed. A process reads a bounded set of names (a specs folder's files, etcd keys, include
/// URLs), and the table is bounded too: past ``maxShared`` names, or for a name longer than
/// ``maxSharedLength`` bytes, a name is a reference counted like a string, as all were before.
struct SourceName: Sendable, Hashable {
    /// How many names the table keeps.
    static let maxShared = 4_096
    /// The longest name (in UTF-8 bytes) the table keeps.
    static let maxSharedLength = 1_024

    private final class Text: Sendable {
        let string: String

        init(_ string: String) {
            self.string = string
        }
    }

    private enum Storage: Sendable {
        /// An entry of the table, which is never freed.
        case shared(Unmanaged<Text>)
        /// A name the table has no room for.
        case owned(Text)
    }

    private static let table = Mutex<[String: Unmanaged<Text>]>([:])

    private let storage: Storage

    /// The name `string`, from the table when it has or can take it. A lock and a hash: make a
    /// name once per source, not once per location.
    init(_ string: String) {
        let shared = Self.table.withLock { table -> Unmanaged<Text>? in
            if let entry = table[string] { return entry }
            guard table.count < Self.maxShared, string.utf8.count <= Self.maxSharedLength else { return nil }
            let entry = Unmanaged.passRetained(Text(string))
            table[string] = entry
            return entry
        }
        storage = shared.map { .shared($0) } ?? .owned(Text(string))
    }

    /// The name as a string.
    var string: String {
        switch storage {
        case .shared(let entry): entry._withUnsafeGuaranteedRef { $0.string }
        case .owned(let text): text.string
        }
    }

    static func == (lhs: SourceName, rhs: SourceName) -> Bool {
        // The table holds each string once, so two entries are equal only if they are one.
        if case .shared(let left) = lhs.storage, case .shared(let right) = rhs.storage {
            return left.toOpaque() == right.toOpaque()
        }
        return lhs.string == rhs.string
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(string)
    }
}
