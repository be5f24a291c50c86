/// Reads an `Accept-Encoding` header (RFC 9110 §12.5.3) for the one question the daemon asks:
/// may the answer be gzip?
package enum AcceptEncoding {
    /// Whether the header's lines accept `gzip`: listed (or `x-gzip`) with a weight above zero,
    /// or not listed while `*` has one. No header, or a member that does not parse, accepts
    /// nothing but identity.
    package static func acceptsGzip(headerValues: [String]) -> Bool {
        var gzip: Bool?
        var any: Bool?
        for line in headerValues {
            for member in line.split(separator: ",") {
                let parts = member.split(separator: ";", omittingEmptySubsequences: false)
                let coding = String(parts[0]).trimmingSpaces.lowercased()
                guard let weight = weight(of: parts.dropFirst()) else { continue }
                switch coding {
                case "gzip", "x-gzip": gzip = (gzip ?? false) || weight > 0
                case "*": any = (any ?? false) || weight > 0
                default: break
                }
            }
        }
        return gzip ?? any ?? false
    }

    /// The `q` parameter (1 when absent), `nil` if it is not a weight from 0 to 1 with at most
    /// three decimals.
    private static func weight(of parameters: ArraySlice<Substring>) -> Double? {
        var weight = 1.0
        for parameter in parameters {
            let pair = parameter.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, String(pair[0]).trimmingSpaces.lowercased() == "q" else { continue }
            let text = String(pair[1]).trimmingSpaces
            guard text.count <= 5, let value = Double(text), (0...1).contains(value),
                text.first == "0" || text.first == "1"
            else { return nil }
            weight = value
        }
        return weight
    }
}
