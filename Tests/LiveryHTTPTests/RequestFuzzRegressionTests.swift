import Foundation
import Livery
@_spi(LiveryInternal) import LiveryHTTP
import Testing

/// Inputs Fuzz/FuzzRequest found, each with the answer it must get now.
@Suite struct RequestFuzzRegressionTests {
    /// `GET /v1/specs/card.yaml%00.json` was accepted as `card.yaml\0.json`: the NUL ends the
    /// path in every system call, so the daemon served `card.yaml` as JSON (and a push would
    /// have created a folder named `card.yaml`).
    @Test(arguments: [
        ("/v1/specs/card.yaml%00.json", #""card.yaml\0.json" contains the control character U+0000"#),
        ("/v1/specs/a%0Ab.yaml", #""a\nb.yaml" contains the control character U+000A"#),
        ("/v1/specs/x%7F.yaml", #""x\u{7F}.yaml" contains the control character U+007F"#),
    ])
    func controlCharactersInPathsAreRefused(uriPath: String, message: String) throws {
        let raw = try #require(SpecRequestPath.decode(uriPath))
        let error = try #require(throws: SpecError.self) { try SpecPath.validate(raw) }
        #expect(error.code == .forbiddenPath)
        #expect(error.message == message)
    }

    /// The path rules compared Characters, so a combining mark (U+0301) after `/` or `.`, or a
    /// prepended mark (U+0600) before `/`, hid an absolute path, a separator or a dot file.
    @Test(arguments: [
        ("/\u{301}etc/x.yaml", "is an absolute path"),
        (".\u{301}secret.yaml", "names a hidden file or folder"),
        ("a\u{600}/.git/x.yaml", "names a hidden file or folder"),
        ("a\u{600}/../../x.yaml", "leaves the specs folder"),
    ])
    func combiningMarksHideNoRule(path: String, message: String) throws {
        let error = try #require(throws: SpecError.self) { try SpecPath.validate(path) }
        #expect(error.message == "'\(path)' \(message)" || error.message.hasPrefix("'\(path)' \(message)"))
    }

    /// A share given as text (`"rollout": "10%.0"` in a push, a rollout or a promotion) lost a
    /// trailing `.0` meant only for a number's printing, so the body took text that `?rollout=`
    /// refuses (Fuzz/FuzzPromotion).
    @Test(arguments: ["00%.0", "10%.0", "5.0.0"])
    func aShareAsTextIsReadAsTheQueryReadsIt(text: String) throws {
        #expect(RolloutShare(query: text) == nil)
        let body = try JSONSerialization.data(withJSONObject: ["rollout": text])
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([String: RolloutShare].self, from: body) }
        let number = try JSONDecoder().decode([String: RolloutShare].self, from: Data(#"{"rollout": 10.0}"#.utf8))
        #expect(number["rollout"]?.basisPoints == 1000)
    }

    /// A tag whose opaque part starts with a combining mark kept its quotes: the mark joined the
    /// opening quote into one Character (Fuzz/FuzzPromotion).
    @Test func aCombiningMarkAfterTheQuoteStillLeavesTheOpaquePart() {
        #expect(EntityTag.opaque(of: "\"\u{301}abc\"") == "\u{301}abc")
        #expect(EntityTag.opaque(of: "W/\"\u{301}\"") == "\u{301}")
        #expect(EntityTag.opaque(of: " W/\"abc\" ") == "abc")
    }

    /// A path that starts with a combining mark is an ordinary relative name.
    @Test func aLeadingCombiningMarkIsAnOrdinaryName() throws {
        #expect(try SpecPath.validate("\u{325}9eGET.yaml") == "\u{325}9eGET.yaml")
    }

    /// A token that starts with a combining mark (`\u{301}`) did not authorise its own header:
    /// the space of `Bearer ` and the mark are one Character, so a Character-wise scheme check
    /// missed the space. The check now reads bytes.
    @Test(arguments: ["\u{301}abc", "\u{20DD}", "a\u{301}"])
    func aTokenAlwaysAuthorisesItsOwnHeader(text: String) throws {
        let token = try BearerToken(text)
        #expect(token.authorizes(token.authorizationHeader))
        #expect(token.authorizes("bearer " + text))
        #expect(!token.authorizes("Bearer" + text))
    }
}
