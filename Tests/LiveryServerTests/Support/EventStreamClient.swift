import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Synchronization

/// Reads a Server-Sent Events stream over a real connection and records what arrives.
final class EventStreamClient: Sendable {
    /// One frame of the stream.
    enum Message: Sendable, Equatable {
        case event(id: String?, event: String?, data: String)
        case comment(String)
        case retry(Int)
    }

    let status: Int
    let contentType: String?
    private let received = Mutex<[Message]>([])
    private let reader = Mutex<Task<Void, Never>?>(nil)
    private let ended = Mutex(false)

    private init(status: Int, contentType: String?) {
        self.status = status
        self.contentType = contentType
    }

    /// Connects and starts recording.
    static func connect(_ url: String, lastEventID: String? = nil) async throws -> EventStreamClient {
        var request = HTTPClientRequest(url: url)
        request.headers.add(name: "Accept", value: "text/event-stream")
        if let lastEventID { request.headers.add(name: "Last-Event-ID", value: lastEventID) }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
        let client = EventStreamClient(
            status: Int(response.status.code), contentType: response.headers.first(name: "Content-Type"))
        let task = Task {
            var text = ""
            do {
                for try await buffer in response.body {
                    text += String(buffer: buffer)
                    while let end = text.range(of: "\n\n") {
                        let block = String(text[..<end.lowerBound])
                        text = String(text[end.upperBound...])
                        client.record(block)
                    }
                }
            } catch {
                // The test closed the stream, or the server ended it: either way, stop recording.
            }
            client.ended.withLock { $0 = true }
        }
        client.reader.withLock { $0 = task }
        return client
    }

    private func record(_ block: String) {
        var id: String?
        var event: String?
        var data: [String] = []
        var messages: [Message] = []
        for line in block.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix(":") {
                messages.append(.comment(line.dropFirst().trimmingCharacters(in: .whitespaces)))
            } else if line.hasPrefix("id: ") {
                id = String(line.dropFirst(4))
            } else if line.hasPrefix("event: ") {
                event = String(line.dropFirst(7))
            } else if line.hasPrefix("data: ") {
                data.append(String(line.dropFirst(6)))
            } else if line.hasPrefix("retry: "), let value = Int(line.dropFirst(7)) {
                messages.append(.retry(value))
            }
        }
        if id != nil || event != nil || !data.isEmpty {
            messages.append(.event(id: id, event: event, data: data.joined(separator: "\n")))
        }
        received.withLock { $0 += messages }
    }

    /// Everything received so far.
    var messages: [Message] { received.withLock { $0 } }

    /// The `spec` events received so far.
    var events: [(id: String?, data: String)] {
        messages.compactMap {
            if case .event(let id, "spec", let data) = $0 { return (id, data) }
            return nil
        }
    }

    /// Whether the stream has ended (the server closed it, or ``close()`` was called).
    var isFinished: Bool { ended.withLock { $0 } }

    /// Stops reading and closes the connection.
    func close() {
        reader.withLock { $0?.cancel() }
    }
}
