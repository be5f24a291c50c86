import Foundation
import LiveryServer
import LiveryTesting
import Testing

/// The push token: comparison, generation, and the token file.
@Suite struct BearerTokenTests {
    @Test func authorizesOnlyTheExactToken() throws {
        let token = try BearerToken("s3cret\n")
        #expect(token.text == "s3cret")
        #expect(token.authorizes("Bearer s3cret"))
        #expect(token.authorizes("bearer s3cret"))
        for header in [
            nil, "", "Bearer", "Bearer ", "Bearer s3cre", "Bearer s3crett", "Basic s3cret", "Bearer S3CRET", "s3cret",
        ] {
            #expect(!token.authorizes(header), "\(header ?? "nil")")
        }
    }

    @Test func anEmptyTokenIsRefused() {
        #expect(throws: TokenError.self) { try BearerToken(" \n") }
    }

    @Test func randomTokensAre256BitsOfHex() {
        let tokens = (0..<20).map { _ in BearerToken.random().text }
        #expect(Set(tokens).count == 20)
        #expect(tokens.allSatisfy { $0.count == 64 && $0.allSatisfy(\.isHexDigit) })
        #expect("\(BearerToken.random())" == "BearerToken(redacted)")
    }

    @Test func theTokenFileIsPrivateAndReadsBack() throws {
        let folder = try TemporarySpecFolder(prefix: "livery-token")
        let location = TokenFile.defaultLocation(environment: [
            "XDG_RUNTIME_DIR": folder.url.path, "HOME": "/nonexistent",
        ])
        #expect(location.path == folder.url.path + "/livery/token")
        let token = BearerToken.random()
        try TokenFile.write(token, to: location)
        let attributes = try FileManager.default.attributesOfItem(atPath: location.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let folderAttributes = try FileManager.default.attributesOfItem(
            atPath: location.deletingLastPathComponent().path)
        #expect((folderAttributes[.posixPermissions] as? Int) == 0o700)
        #expect(try TokenFile.read(location).text == token.text)
        #expect(TokenFile.defaultLocation(environment: ["HOME": "/home/u"]).path == "/home/u/.local/state/livery/token")
    }
}
