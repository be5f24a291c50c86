import Foundation

/// The schedule in the daemon's store: one record (``recordName``) holding every scheduled
/// change as JSON. Each change of it is a write over the version read, so that of two daemons
/// sharing a store only one takes a step (``update(_:)``); the other reads the schedule again
/// and finds the step taken.
struct ScheduleStore: Sendable {
    /// The name of the store record that keeps the schedule.
    static let recordName = "schedule"
    /// The largest schedule kept, in bytes of JSON: the files of one write
    /// (``SpecWriter/maxBytes``), so that etcd takes the record as it takes a write.
    static let maxBytes = SpecWriter.maxBytes
    /// The ended changes kept for the listing, the most recent.
    static let keptEnded = 100

    /// The schedule: every change, in the order planned.
    struct Book: Codable, Sendable {
        var changes: [ScheduledChange] = []

        func index(of id: String) -> Int? { changes.firstIndex { $0.id == id } }
    }

    let store: any SpecStore

    /// The schedule as the store holds it now, and the record's version.
    func read() async throws(StoreError) -> (Book, version: Int64) {
        let record = try await store.record(named: Self.recordName)
        guard let data = record.data else { return (Book(), 0) }
        do {
            return (try Self.decoder.decode(Book.self, from: data), record.version)
        } catch {
            throw .storeFailed("the store's schedule record is no schedule: \(error)")
        }
    }

    /// Reads the schedule, lets `change` change it and writes it over the version read, again
    /// from the new version while another daemon writes first. `change` returns the event the
    /// store's history records, or `nil` to write nothing. Whether it wrote.
    @discardableResult
    func update(_ change: (inout Book) throws(ScheduleError) -> String?) async throws(ScheduleError) -> Bool {
        for _ in 0..<SpecWriter.maxTries {
            var book: Book
            let version: Int64
            do throws(StoreError) {
                (book, version) = try await read()
            } catch {
                throw .store(error)
            }
            guard let event = try change(&book) else { return false }
            Self.forgetOldest(in: &book)
            let data = try Self.encoded(book)
            do throws(StoreError) {
                let written = try await store.write(
                    record: data, named: Self.recordName, over: version, event: event, by: nil,
                    keepingReportsOf: Self.recordName)
                if written != nil { return true }
            } catch {
                throw .store(error)
            }
        }
        throw .store(.tooManyRaces(SpecWriter.maxTries))
    }

    /// Drops the oldest ended changes beyond ``keptEnded``.
    private static func forgetOldest(in book: inout Book) {
        let ended = book.changes.filter { $0.state != .planned }
        guard ended.count > keptEnded else { return }
        let dropped = Set(ended.sorted { $0.createdAt < $1.createdAt }.prefix(ended.count - keptEnded).map(\.id))
        book.changes.removeAll { dropped.contains($0.id) }
    }

    private static func encoded(_ book: Book) throws(ScheduleError) -> Data {
        let data: Data
        do {
            data = try encoder.encode(book)
        } catch {
            throw .store(.storeFailed("cannot encode the schedule: \(error)"))
        }
        guard data.count <= maxBytes else { throw .tooLarge(data.count) }
        return data
    }

    private static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }

    private static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }
}
