import FuzzSupport
@_spi(LiveryInternal) import LiveryHTTP

/// The admission rule (RequestAdmission) on the `Host` and `Authorization` values the scanner
/// found, against a reference written the plain way (strings, no pointers): a loopback daemon
/// that also answers `livery.example` and takes two tokens.
enum AdmissionChecks {
    static let names = RequestAdmission.loopbackNames + ["livery.example"]
    static let tokens = ["reader-token", "pusher"]
    static let admission: RequestAdmission = {
        let bearers = tokens.compactMap { try? BearerToken($0) }
        fuzzCheck(bearers.count == tokens.count, "a fixed token does not make a BearerToken")
        return RequestAdmission(hosts: names, tokens: bearers)
    }()

    static func check(host: UnsafeRawBufferPointer?, authorization: UnsafeRawBufferPointer?) {
        let hostBytes = host.map { Array($0) }
        let authorizationBytes = authorization.map { Array($0) }
        for needsToken in [false, true] {
            let verdict = admission.decide(rawHost: host, rawAuthorization: authorization, needsToken: needsToken)
            let expected = reference(host: hostBytes, authorization: authorizationBytes, needsToken: needsToken)
            fuzzCheck(
                verdict == expected,
                "Host \(String(describing: hostBytes)) Authorization \(String(describing: authorizationBytes)) needsToken \(needsToken): \(verdict), expected \(expected)"
            )
        }
    }

    private static func reference(
        host: [UInt8]?, authorization: [UInt8]?, needsToken: Bool
    )
        -> RequestAdmission.Verdict
    {
        guard let host, !host.isEmpty else { return .badHost }
        let text = host.map { $0 >= 65 && $0 <= 90 ? $0 + 32 : $0 }
        let name: ArraySlice<UInt8>
        let port: ArraySlice<UInt8>
        if text.first == UInt8(ascii: "["), let close = text.firstIndex(of: UInt8(ascii: "]")) {
            name = text[...close]
            port = text[(close + 1)...]
        } else if let colon = text.firstIndex(of: UInt8(ascii: ":")) {
            name = text[..<colon]
            port = text[colon...]
        } else {
            name = text[...]
            port = []
        }
        let portIsDigits =
            port.isEmpty || (port.first == UInt8(ascii: ":") && port.dropFirst().allSatisfy { $0 >= 48 && $0 <= 57 })
        guard portIsDigits, names.contains(where: { Array($0.utf8) == Array(name) }) else { return .misdirected }
        let carried =
            authorization.map { value in
                value.count > 7 && value.prefix(7).map { $0 >= 65 && $0 <= 90 ? $0 + 32 : $0 } == Array("bearer ".utf8)
                    && tokens.contains { Array($0.utf8) == Array(value.dropFirst(7)) }
            } ?? false
        if needsToken, !carried { return .unauthorized }
        return .admitted(authenticated: carried)
    }
}
