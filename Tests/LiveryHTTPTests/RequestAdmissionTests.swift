@_spi(LiveryInternal) import LiveryHTTP
import Testing

/// The one rule on `Host` and read tokens that both request paths apply.
@Suite struct RequestAdmissionTests {
    private let loopback = RequestAdmission(
        hosts: RequestAdmission.loopbackNames + ["livery.example"], tokens: [])

    @Test(arguments: [
        "localhost", "127.0.0.1", "[::1]", "localhost:7878", "127.0.0.1:1", "[::1]:7878", "LocalHost", "livery.example",
        "LIVERY.example:443", "localhost:",
    ])
    func aLoopbackOrAllowedNameIsAdmitted(host: String) {
        #expect(loopback.decide(host: host, authorization: nil, needsToken: true) == .admitted(authenticated: false))
    }

    @Test(arguments: [
        "evil.example", "evil.example:7878", "localhost.", "127.0.0.2", "localhost:x", "localhost:80:80", "[::2]",
        "[::1]x", "::1", "localhost.evil.example", "127.0.0.1.evil.example", "x", " localhost",
    ])
    func anyOtherNameIsMisdirected(host: String) {
        #expect(loopback.decide(host: host, authorization: nil, needsToken: false) == .misdirected)
    }

    @Test func aMissingOrEmptyHostIsBad() {
        #expect(loopback.decide(host: nil, authorization: nil, needsToken: false) == .badHost)
        #expect(loopback.decide(host: "", authorization: nil, needsToken: false) == .badHost)
        // Checked even where any name is accepted.
        let anywhere = RequestAdmission(hosts: nil, tokens: [])
        #expect(anywhere.decide(host: nil, authorization: nil, needsToken: false) == .badHost)
        #expect(
            anywhere.decide(host: "evil.example", authorization: nil, needsToken: true)
                == .admitted(authenticated: false))
    }

    @Test func readTokensAreNeededExceptOnOpenRoutes() throws {
        let admission = RequestAdmission(
            hosts: RequestAdmission.loopbackNames, tokens: [try BearerToken("reader"), try BearerToken("pusher")])
        #expect(admission.requiresToken)
        for header in [nil, "", "Bearer", "Bearer reade", "Bearer readerx", "Basic reader", "reader"] {
            #expect(admission.decide(host: "localhost", authorization: header, needsToken: true) == .unauthorized)
            #expect(
                admission.decide(host: "localhost", authorization: header, needsToken: false)
                    == .admitted(authenticated: false))
        }
        for header in ["Bearer reader", "bearer pusher", "BEARER reader"] {
            #expect(
                admission.decide(host: "localhost", authorization: header, needsToken: true)
                    == .admitted(authenticated: true))
        }
        // The Host comes first: a foreign page learns nothing about the token.
        #expect(
            admission.decide(host: "evil.example", authorization: "Bearer reader", needsToken: true) == .misdirected)
    }
}

/// The `Host` check reads each value once and compares words; this holds it to the plain
/// reading (the name up to the first `:` after an IPv6 address's `]`, a port of digits after
/// it, the name compared in any ASCII case) over every short value of the bytes that matter.
@Suite struct RequestAdmissionHostReadingTests {
    /// Names as odd as an embedder may pass: with a colon, an unclosed bracket, empty.
    private static let names = ["a", "ab", "[a]", "[b", "b:a", "[b]:1", "", "[:a]", "aaaaaaaaab"]
    private static let alphabet = Array("aAb:[]1".utf8)

    @Test(arguments: [names, names.reversed()])
    func everyShortHostIsReadAsThePlainRuleReadsIt(names: [String]) {
        var hosts: [[UInt8]] = [[]]
        var frontier: [[UInt8]] = [[]]
        for _ in 1...5 {
            frontier = frontier.flatMap { host in Self.alphabet.map { host + [$0] } }
            hosts += frontier
        }
        hosts += [Array("aaaaaaaaab:7".utf8), Array("AAAAAAAAAB".utf8), Array("aaaaaaaaa:1".utf8)]
        let misread = Self.misread(hosts.filter { !$0.isEmpty }, names: names)
        #expect(misread.isEmpty, "read differently: \(misread.prefix(20))")
    }

    /// The longer values the words are read from: names from 1 to 17 bytes (past the two words
    /// a name is kept as) in three cases, each with every port of up to 10 bytes of digits and
    /// of the bytes next to them (`/` and `:` just outside `0`…`9`, DEL, a byte past ASCII), so
    /// a port checked as a word meets every lane and both ends of the range.
    @Test func everyLongerHostAndPortIsReadAsThePlainRuleReadsIt() {
        let names = (1...17).map { String("abcdefghijklmnopq".prefix($0)) } + ["127.0.0.1", "[::1]"]
        let portBytes: [UInt8] = [0x30, 0x39, 0x2F, 0x3A, 0x7F, 0xB0]
        var ports: [[UInt8]] = [[]]
        for length in 1...10 {
            // Every port of digits alone, and each odd byte in each place of one.
            ports.append(Array(repeating: 0x35, count: length))
            for place in 0..<length {
                for byte in portBytes {
                    var port = Array(repeating: UInt8(0x37), count: length)
                    port[place] = byte
                    ports.append(port)
                }
            }
        }
        let tried = names + ["ABCDEFGHIJKLMNOPQ", "aBcDeFgHiJkLmNoP", "abcdefghijklmnopr", "127.0.0.2", "[::2]"]
        let hosts: [[UInt8]] = tried.flatMap { name -> [[UInt8]] in
            let name = Array(name.utf8)
            return ports.flatMap { port -> [[UInt8]] in [name + port, name + [0x3A] + port] }
        }
        let misread = Self.misread(hosts, names: names)
        #expect(misread.isEmpty, "read differently: \(misread.prefix(20))")
    }

    /// The `hosts` that a daemon accepting `names` reads otherwise than the plain rule.
    private static func misread(_ hosts: [[UInt8]], names: [String]) -> [String] {
        let admission = RequestAdmission(hosts: names, tokens: [])
        return hosts.compactMap { host in
            let verdict = host.withUnsafeBytes {
                admission.decide(rawHost: $0, rawAuthorization: nil, needsToken: false)
            }
            let expected: RequestAdmission.Verdict =
                plainlyNames(host, oneOf: names) ? .admitted(authenticated: false) : .misdirected
            return verdict == expected ? nil : String(decoding: host, as: UTF8.self)
        }
    }

    /// The rule as written in RFC 9110 §7.2's terms, without regard for cost.
    private static func plainlyNames(_ host: [UInt8], oneOf names: [String]) -> Bool {
        var end = host.count
        let searchFrom = host[0] == UInt8(ascii: "[") ? (host.firstIndex(of: UInt8(ascii: "]")) ?? end) : 0
        if let colon = host[searchFrom...].firstIndex(of: UInt8(ascii: ":")) {
            guard host[(colon + 1)...].allSatisfy({ (0x30...0x39).contains($0) }) else { return false }
            end = colon
        }
        let name = String(decoding: host[..<end], as: UTF8.self).lowercased()
        return names.contains(name)
    }
}
