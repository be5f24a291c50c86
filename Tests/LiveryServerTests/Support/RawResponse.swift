import Foundation

/// One HTTP/1.1 response as it came over a raw connection: status, header fields and body.
struct RawResponse: CustomStringConvertible {
    var status: Int
    /// The fields in order, names as sent.
    var fields: [(name: String, value: String)]
    var body: Data

    /// Reads the one response of a connection the server closed after it (`Connection: close`).
    init(_ text: String) throws {
        try self.init(Data(text.utf8))
    }

    /// The same from the bytes, so a binary (gzip) body stays as it was sent.
    init(_ data: Data) throws {
        guard let end = data.range(of: Data("\r\n\r\n".utf8)) else {
            throw HTTPTestError("no end of head in \(String(decoding: data, as: UTF8.self).debugDescription)")
        }
        var lines = String(decoding: data[..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst()
        guard statusLine.hasPrefix("HTTP/1.1 "), let status = Int(statusLine.dropFirst(9).prefix(3)) else {
            throw HTTPTestError("bad status line \(statusLine.debugDescription)")
        }
        self.status = status
        self.fields = try lines.map { line in
            guard let colon = line.firstIndex(of: ":") else {
                throw HTTPTestError("bad field \(line.debugDescription)")
            }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        self.body = Data(data[end.upperBound...])
    }

    /// The value of the field `name` (any case), the first if there are several.
    func field(_ name: String) -> String? {
        fields.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// The fields as `name: value` lines with lower-cased names, sorted, without those named.
    func fieldLines(except excluded: Set<String> = ["date"]) -> [String] {
        fields.filter { !excluded.contains($0.name.lowercased()) }.map { "\($0.name.lowercased()): \($0.value)" }
            .sorted()
    }

    var description: String { "\(status) \(fields.map { "\($0.name): \($0.value)" }) \(body.count) bytes" }

    /// Sends `request` (its head ended by `Connection: close` and a blank line) on a new
    /// connection to `port` and reads the answer.
    static func exchange(_ request: String, port: Int) async throws -> RawResponse {
        let connection = try RawConnection(port: port)
        try await connection.send(request)
        let (data, closed) = try await connection.receiveDataUntilClosed(timeout: .seconds(10))
        guard closed else { throw HTTPTestError("the server kept the connection open after \(data.count) bytes") }
        return try RawResponse(data)
    }
}
