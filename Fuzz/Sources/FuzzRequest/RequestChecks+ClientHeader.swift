import FuzzSupport
import LiveryHTTP

extension RequestChecks {
    /// A `Livery-Client` value that parses stays within the limits, and serialising it gives a
    /// value that parses back to the same header; one that does not parse fails with a column
    /// inside the value (or just past its end).
    static func checkClientHeader(_ value: String) {
        let header: LiveryClientHeader
        do {
            header = try LiveryClientHeader(fieldValue: value)
        } catch {
            let column = error.column ?? 1
            fuzzCheck(
                (1...value.utf8.count + 1).contains(column) || column == LiveryClientHeader.maxBytes + 1,
                "Livery-Client \(value.debugDescription): error column \(column) outside the value")
            return
        }
        let fields =
            [header.identity.name, header.identity.instance, header.identity.appVersion, header.applied ?? ""]
            + header.skipped
        fuzzCheck(
            fields.allSatisfy { $0.utf8.count <= ClientIdentity.maxFieldBytes }
                && header.skipped.count <= LiveryClientHeader.maxListedSkipped,
            "Livery-Client \(value.debugDescription): a field or the list is over its limit")
        let printed = header.fieldValue
        fuzzCheck(
            printed.utf8.count <= LiveryClientHeader.maxBytes, "Livery-Client: \(printed.debugDescription) too long")
        fuzzCheck(
            (try? LiveryClientHeader(fieldValue: printed)) == header,
            "Livery-Client \(value.debugDescription) → \(printed.debugDescription) does not read back")
    }
}
