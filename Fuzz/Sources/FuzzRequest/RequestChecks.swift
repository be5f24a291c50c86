import Foundation
import FuzzSupport
import Livery
@_spi(LiveryInternal) import LiveryHTTP

/// The contracts of the request interpreters, checked on whatever the fuzzer sends.
enum RequestChecks {
    /// A spec path the daemon accepts is relative, normalised, free of hidden parts and control
    /// characters, has a spec extension and stays inside the folder once resolved; a refused one
    /// is refused with `forbiddenPath`.
    static func checkPath(_ uriPath: String) {
        // The route's own reading, and the rules alone on any path (more shapes reach them).
        for raw in [SpecRequestPath.decode(uriPath), uriPath.removingPercentEncoding].compactMap(\.self) {
            let path: String
            do {
                path = try SpecPath.validate(raw)
            } catch {
                fuzzCheck(
                    error.code == .forbiddenPath, "SpecPath.validate(\(raw.debugDescription)) threw \(error.code.name)")
                continue
            }
            checkAcceptedPath(path, raw: raw)
        }
    }

    private static func checkAcceptedPath(_ path: String, raw: String) {
        let context = "SpecPath.validate(\(raw.debugDescription)) = \(path.debugDescription)"
        // Bytes throughout: the file system splits at the byte `/`, whatever marks follow it.
        fuzzCheck(!path.isEmpty && path.utf8.first != UInt8(ascii: "/"), "\(context): empty or absolute")
        let parts = path.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        fuzzCheck(
            parts.allSatisfy { !$0.isEmpty && $0.first != UInt8(ascii: ".") },
            "\(context): an empty, dot or hidden part")
        fuzzCheck(
            !path.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F },
            "\(context): a control character (a NUL cuts the path short in every system call)")
        fuzzCheck((try? SpecPath.validate(path)) == path, "\(context): not normalised (validating it again changes it)")
        guard let format = SpecPath.format(of: path) else {
            fuzzCheck(false, "\(context): no spec format")
            return
        }
        let pathExtension = String(path[path.index(after: path.lastIndex(of: ".")!)...]).lowercased()
        fuzzCheck((format == .json) == (pathExtension == "json"), "\(context): format \(format) for .\(pathExtension)")
        fuzzCheck(
            format.contentType.hasPrefix(format == .json ? "application/json" : "application/yaml"),
            "\(context): content type")
        let folder = URL(filePath: "/srv/specs", directoryHint: .isDirectory)
        let resolved = folder.appending(path: path).standardizedFileURL.path
        fuzzCheck(
            resolved.utf8.starts(with: "/srv/specs/".utf8), "\(context): resolves to \(resolved), outside the folder")
    }

    /// `If-None-Match` / `If-Match` lists print back to the same list, and match exactly the tags
    /// they list (strongly only when not weak).
    static func checkConditions(_ request: RawRequest, body: Data) {
        for name in ["if-none-match", "if-match"] {
            let lines = request.values(of: name)
            guard let condition = EntityTagCondition(headerValues: lines) else {
                fuzzCheck(lines.isEmpty, "\(name) \(lines) parsed to nil")
                continue
            }
            let printed = print(condition)
            fuzzCheck(
                EntityTagCondition(headerValues: [printed]) == condition,
                "\(name) \(lines.debugDescription) → \(condition) → \(printed.debugDescription) does not read back")
            fuzzCheck(
                !condition.matchesWeakly(nil) && !condition.matchesStrongly(nil), "\(name) matches a missing file")
            let content = EntityTag(of: body)
            switch condition {
            case .any:
                fuzzCheck(condition.matchesWeakly(content) && condition.matchesStrongly(content), "* does not match")
            case .tags(let members):
                for member in members {
                    let tag = EntityTag(opaque: member.opaque)
                    fuzzCheck(
                        condition.matchesWeakly(tag), "\(name) \(lines) does not weakly match its member \(member)")
                    let strong = members.contains { $0.opaque == member.opaque && !$0.weak }
                    fuzzCheck(condition.matchesStrongly(tag) == strong, "\(name) \(lines): strong match of \(member)")
                }
                let listed = members.contains { $0.opaque == content.opaque }
                fuzzCheck(condition.matchesWeakly(content) == listed, "\(name) \(lines): weak match of the body's tag")
            }
        }
    }

    private static func print(_ condition: EntityTagCondition) -> String {
        switch condition {
        case .any: return "*"
        case .tags(let members):
            return members.map { ($0.weak ? "W/" : "") + "\"\($0.opaque)\"" }.joined(separator: ", ")
        }
    }

    /// `Last-Event-ID`: a tag is named by its own header forms, and a valid tag (RFC 9110
    /// `etagc` characters) built from the value is named by its header forms too.
    static func checkLastEventID(_ value: String, body: Data) {
        let content = EntityTag(of: body)
        for form in [content.description, "W/" + content.description, content.opaque, " \(content.description)\t"] {
            fuzzCheck(content.isNamed(by: form), "the tag \(content) is not named by \(form.debugDescription)")
        }
        _ = content.isNamed(by: value)
        let isEtagc = { (scalar: Unicode.Scalar) in scalar.value == 0x21 || (0x23...0x7E).contains(scalar.value) }
        guard !value.isEmpty, value.unicodeScalars.allSatisfy(isEtagc) else { return }
        let tag = EntityTag(opaque: value)
        for form in [tag.description, "W/" + tag.description] {
            fuzzCheck(
                tag.isNamed(by: form),
                "EntityTag(opaque: \(value.debugDescription)) is not named by \(form.debugDescription)")
        }
    }

    /// `?wait=`: nil or within 0…maximum; its canonical `…ms` form reads back to the same
    /// duration; whole seconds read as seconds; the jitter stays within ±10 % and the maximum.
    static func checkWait(_ text: String, strict: Bool) {
        guard let wait = WaitDuration.parse(text) else {
            fuzzCheck(
                !(strict && !text.isEmpty && text.count <= 5 && text.allSatisfy(\.isASCII)
                    && text.allSatisfy(\.isNumber)),
                "wait=\(text.debugDescription), whole seconds, was refused")
            return
        }
        let context = "wait=\(text.debugDescription) → \(wait)"
        fuzzCheck(wait >= .zero && wait <= WaitDuration.maximum, "\(context): outside 0…\(WaitDuration.maximum)")
        let milliseconds = wait.components.seconds * 1000 + wait.components.attoseconds / 1_000_000_000_000_000
        fuzzCheck(WaitDuration.parse("\(milliseconds)ms") == wait, "\(context): \(milliseconds)ms reads differently")
        if !text.isEmpty, text.count <= 5, text.allSatisfy({ $0.isASCII && $0.isNumber }), let seconds = Int64(text) {
            fuzzCheck(wait == .seconds(min(seconds, 300)), "\(context): not \(seconds) seconds")
        }
        let jittered = WaitDuration.jittered(wait)
        fuzzCheck(
            jittered <= WaitDuration.maximum && jittered >= wait * 0.9 - .milliseconds(1)
                && jittered <= wait * 1.1 + .milliseconds(1),
            "\(context): jittered to \(jittered)")
    }

    /// `Authorization`: a token authorises exactly `Bearer <token>` (scheme in any case, one
    /// space, the token byte for byte), and always its own header.
    static func checkAuthorization(_ headers: [String], tokens: [String]) {
        var candidates = [try? BearerToken("s3cret-token")]
        candidates += tokens.map { try? BearerToken($0) }
        for token in candidates.compactMap(\.self) {
            fuzzCheck(
                token.authorizes(token.authorizationHeader),
                "a token does not authorise its own header: \(token.text.debugDescription)")
            fuzzCheck(
                token.authorizes("bEaReR " + token.text),
                "the scheme is case-sensitive for \(token.text.debugDescription)")
            for header in headers + [nil] {
                let expected = header.map { expectedAuthorization($0, token: token.text) } ?? false
                fuzzCheck(
                    token.authorizes(header) == expected,
                    "\(token.text.debugDescription) authorises \(header.debugDescription): \(!expected)")
            }
        }
    }

    /// The reference reading, on bytes: `bearer ` in any ASCII case, then exactly the token.
    private static func expectedAuthorization(_ header: String, token: String) -> Bool {
        let bytes = Array(header.utf8)
        let scheme = Array("bearer ".utf8)
        guard bytes.count > scheme.count else { return false }
        let lowered = bytes[..<scheme.count].map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }
        return lowered == scheme && Array(bytes[scheme.count...]) == Array(token.utf8)
    }
}
