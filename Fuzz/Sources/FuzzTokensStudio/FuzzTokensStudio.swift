import Foundation
import FuzzSupport
@_spi(LiveryInternal) import Livery

/// The body of a push to the daemon's Tokens Studio storage (`PUT /v1/tokens-studio`): the bytes
/// parsed as JSON, read by `TokensStudioPush` (shape, the legacy-format check, each set
/// normalised), its themes made a resolver document, and the files the daemon would write —
/// `tokens/<set>.tokens.json` and `tokens/studio.resolver.json` — loaded as a spec folder.
///
/// Besides not crashing: a refusal says what was expected; the sets are the body's `values` in
/// order; reading a push made of the normalised sets and the themes gives the same sets again
/// (normalising is idempotent); and the written files pass the folder checks of FuzzSpecFolder
/// and a good spec those of FuzzTokens.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    let body: SpecNode
    do {
        body = try SpecNode.parse(data, format: .json, source: "<body>")
    } catch {
        SpecChecks.checkError(error, files: ["<body>"], context: "SpecNode.parse")
        return 0
    }
    let push: TokensStudioPush
    do {
        push = try TokensStudioPush(body: body)
    } catch {
        fuzzCheck(!error.message.isEmpty, "a refusal with no message")
        return 0
    }
    let names = push.sets.map(\.name)
    fuzzCheck(names == body["values"]?.members?.map(\.key), "sets \(names) are not the body's values in order")
    checkIdempotent(push)
    var sources = SpecSourceSet()
    var paths = Set<String>()
    for set in push.sets {
        // The file the daemon writes: the path as SpecPath gives it back (`tokens//a` is
        // `tokens/a`); a name it refuses, the daemon refuses (403) before writing anything.
        let path: String
        do {
            path = try SpecPath.validate("tokens/\(set.name).tokens.json")
        } catch {
            return 0
        }
        do {
            try sources.set(path, to: Data(set.tokens.prettyJSON.utf8))
            paths.insert(path)
        } catch {
            fuzzCheck(false, "set('\(path)') refused a path SpecPath accepted: \(error)")
        }
    }
    if let themes = push.themes {
        do {
            let resolver = try TokensStudioPush.resolver(themes: themes, sets: names)
            try sources.set("tokens/studio.resolver.json", to: Data(resolver.prettyJSON.utf8))
            paths.insert("tokens/studio.resolver.json")
        } catch {
            fuzzCheck("\(error)".contains("$themes"), "a theme refusal that does not name \"$themes\": \(error)")
            return 0
        }
    }
    if let spec = SpecChecks.checkFolder(sources, roots: nil, files: paths) {
        TokenChecks.checkSpec(spec, context: "Tokens Studio push")
    }
    return 0
}

/// A push of the normalised sets and the same themes reads to the same sets.
private func checkIdempotent(_ push: TokensStudioPush) {
    let here = SourceLocation.start(of: "<again>")
    func member(_ key: String, _ value: SpecNode) -> SpecNode.Member {
        SpecNode.Member(key: key, keyLocation: here, value: value)
    }
    let values = SpecNode(.mapping(push.sets.map { member($0.name, $0.tokens) }), at: here)
    var members = [member("values", values)]
    if let themes = push.themes { members.append(member("$themes", themes)) }
    do {
        let again = try TokensStudioPush(body: SpecNode(.mapping(members), at: here))
        fuzzCheck(
            again.sets.map(\.name) == push.sets.map(\.name)
                && zip(again.sets, push.sets).allSatisfy { $0.tokens.prettyJSON == $1.tokens.prettyJSON },
            "normalising the sets again changes them")
    } catch {
        fuzzCheck(false, "a push of the normalised sets is refused: \(error)")
    }
}
