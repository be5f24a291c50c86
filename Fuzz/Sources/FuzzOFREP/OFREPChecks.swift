import Foundation
import FuzzSupport
import Livery
@_spi(LiveryInternal) import LiveryHTTP

/// The properties FuzzOFREP checks.
enum OFREPChecks {
    /// Checks `EnvironmentPath` on `path` and on the routes of each name in `names`; returns
    /// the route `path` asks for.
    static func checkPath(_ path: String, names: [String]) -> String {
        let (environment, route) = EnvironmentPath.split(path)
        if let environment {
            fuzzCheck(!environment.isEmpty && !environment.contains("/"), "environment '\(environment)' of \(path)")
            fuzzCheck(route.hasPrefix("/v1/") || route.hasPrefix("/ofrep/"), "route '\(route)' of \(path)")
            let back = EnvironmentPath.path(route, environment: String(environment))
            fuzzCheck(back == path, "'\(path)' split to '\(environment)', '\(route)' and came back as '\(back)'")
        } else {
            fuzzCheck(route == path, "'\(path)' names no environment but became '\(route)'")
        }
        for name in names + (environment.map { [String($0)] } ?? []) {
            let valid = EnvironmentPath.isValidName(name)
            fuzzCheck(valid == isValidNameReference(name), "isValidName('\(name)') is \(valid)")
            guard valid, path.hasPrefix("/v1/") || path.hasPrefix("/ofrep/"), environment == nil else { continue }
            let (again, same) = EnvironmentPath.split(EnvironmentPath.path(path, environment: name))
            fuzzCheck(
                again.map(String.init) == name && same == path,
                "'\(path)' of '\(name)' split to \(again ?? "nil"), '\(same)'")
        }
        return route
    }

    /// `[a-z][a-z0-9-]{0,62}`, on Unicode scalars.
    private static func isValidNameReference(_ name: String) -> Bool {
        let scalars = Array(name.unicodeScalars)
        let lower = UnicodeScalar("a").value...UnicodeScalar("z").value
        let digit = UnicodeScalar("0").value...UnicodeScalar("9").value
        guard let first = scalars.first, lower.contains(first.value), scalars.count <= 63 else { return false }
        return scalars.allSatisfy { lower.contains($0.value) || digit.contains($0.value) || $0 == "-" }
    }

    /// The key as the evaluation writes it (`SpecNode.text(key).canonicalJSON`, the same writer)
    /// reads back as the key.
    static func checkKey(_ key: String) {
        let json = SpecNode(.string(key), at: SourceLocation(file: "<key>", line: 1, column: 1)).canonicalJSON
        // Read by JSONDecoder, as a Swift client reads it. JSONSerialization, the older reader,
        // read another string back for a key holding U+0000, U+FEFF and U+FFFD (Fuzz/README.md).
        let back: [String]
        do {
            back = try JSONDecoder().decode([String].self, from: Data("[\(json)]".utf8))
        } catch {
            return fuzzCheck(false, "the key \(key.debugDescription) written as \(json) is not JSON: \(error)")
        }
        fuzzCheck(
            back.count == 1 && Array(back[0].unicodeScalars) == Array(key.unicodeScalars),
            "\(json) reads back as \(back)")
    }

    /// What the body says, read by Livery's own JSON reader (`SpecNode.parse`, strict: it
    /// refuses duplicate keys, which Foundation's readers resolve each their own way): the
    /// context, or why it has none.
    private enum Expected {
        case context(theme: String?, targetingKey: String?)
        case refused(OFREPFailure.Code)
        /// Not JSON by its grammar (JSONSerialization, which reads every value, refuses it too):
        /// the reader must refuse it as `PARSE_ERROR`.
        case notJSON
        /// JSON the strict reference refuses for what it holds (a duplicate key, which the
        /// grammar allows and each reader resolves its own way): no verdict on the outcome.
        case unreadable
    }

    private static func expected(_ body: Data) -> Expected {
        let tree: SpecNode
        do {
            tree = try SpecNode.parse(body, format: .json, source: "<body>")
        } catch {
            let grammatical = (try? JSONSerialization.jsonObject(with: body, options: .fragmentsAllowed)) != nil
            return grammatical ? .unreadable : .notJSON
        }
        guard case .mapping = tree.value else { return .refused(.parseError) }
        guard let context = tree["context"], !isNull(context) else { return .context(theme: nil, targetingKey: nil) }
        guard case .mapping = context.value else { return .refused(.invalidContext) }
        var strings: [String: String] = [:]
        for name in ["theme", "targetingKey"] {
            guard let value = context[name], !isNull(value) else { continue }
            guard case .string(let text) = value.value else { return .refused(.invalidContext) }
            strings[name] = text
        }
        if strings["targetingKey"]?.isEmpty == true { return .refused(.targetingKeyMissing) }
        return .context(theme: strings["theme"], targetingKey: strings["targetingKey"])
    }

    private static func isNull(_ node: SpecNode) -> Bool {
        if case .null = node.value { return true }
        return false
    }

    /// `OFREPContext(body:)` against the reference.
    static func checkContext(_ body: Data) {
        let expected = expected(body)
        do {
            let context = try OFREPContext(body: body)
            if case .unreadable = expected { return }
            guard case .context(let theme, let targetingKey) = expected else {
                return fuzzCheck(false, "a body the reference refuses (\(expected)) was read as \(context)")
            }
            fuzzCheck(
                context.theme == theme && context.targetingKey == targetingKey,
                "read \(context), expected theme \(theme ?? "nil"), targetingKey \(targetingKey ?? "nil")")
            if let key = context.targetingKey {
                let bucket = Rollout.bucket(id: "fuzz", instance: key)
                fuzzCheck((0..<10_000).contains(bucket), "bucket \(bucket) of \(key.debugDescription)")
            }
        } catch {
            fuzzCheck(!error.details.isEmpty, "a refusal (\(error.code)) with no details")
            switch expected {
            case .context: fuzzCheck(false, "a body the reference reads was refused: \(error.code) \(error.details)")
            case .refused(let code): fuzzCheck(error.code == code, "refused with \(error.code), expected \(code)")
            case .notJSON: fuzzCheck(error.code == .parseError, "a body that is not JSON refused with \(error.code)")
            case .unreadable: break
            }
        }
    }
}
