/// The text of one Server-Sent Events frame (WHATWG HTML §9.2).
struct EventStreamFrame {
    var id: String?
    var event: String?
    var data: String

    /// `id:`, `event:` and one `data:` line per line of `data` (compact JSON has one), ended by a
    /// blank line. A line break inside `data` would otherwise end the field early.
    var text: String {
        var text = ""
        if let id { text += "id: \(id)\n" }
        if let event { text += "event: \(event)\n" }
        for line in data.split(separator: "\n", omittingEmptySubsequences: false) {
            text += "data: \(line)\n"
        }
        return text + "\n"
    }

    /// A comment line; clients ignore it, proxies see traffic and keep the stream open.
    static func comment(_ text: String) -> String { ": \(text)\n\n" }

    /// The reconnection delay hint.
    static func retry(_ duration: Duration) -> String {
        let milliseconds = duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
        return "retry: \(milliseconds)\n\n"
    }
}
