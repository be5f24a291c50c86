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
