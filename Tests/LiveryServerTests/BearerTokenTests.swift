import Foundation
import LiveryServer
import LiveryTesting
import Synchronization
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

    @Test func theDefaultFolderMustBeYoursWithMode0700() throws {
        let parent = try TemporarySpecFolder(prefix: "livery-token")
        let location = parent.url("livery-\(getuid())/token")
        let folder = location.deletingLastPathComponent().path
        try FileManager.default.createDirectory(
            atPath: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o755])
        #expect(
            throws: TokenError(
                "the token folder '\(folder)' has mode 755: other users can enter it; it must be 0700 (chmod 700 '\(folder)')"
            )
        ) {
            try TokenFile.write(.random(), to: location)
        }
        #expect(!FileManager.default.fileExists(atPath: location.path))
        #expect(chmod(folder, 0o700) == 0)
        try TokenFile.write(.random(), to: location)
        // A folder another user made first (in a shared temporary folder, anyone can): refused,
        // even with mode 0700. Only root can give a folder away, so only root sees this case.
        if geteuid() == 0 {
            let planted = parent.url("planted/token")
            let plantedFolder = planted.deletingLastPathComponent().path
            try FileManager.default.createDirectory(
                atPath: plantedFolder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
            #expect(chown(plantedFolder, 65534, 65534) == 0)
            #expect(
                throws: TokenError(
                    "the token folder '\(plantedFolder)' belongs to user 65534, not to you (user 0): whoever owns it can replace the token; use a folder of your own"
                )
            ) {
                try TokenFile.write(.random(), to: planted)
            }
            #expect(throws: TokenError.self) { try TokenFile.readOrCreate(planted) }
        }
    }

    @Test func aMissingTokenFileIsCreatedOnceEvenByRacingDaemons() throws {
        let folder = try TemporarySpecFolder(prefix: "livery-token")
        let location = folder.url("token")
        let results = Mutex<[(String, Bool)]>([])
        DispatchQueue.concurrentPerform(iterations: 16) { _ in
            let result = Result { try TokenFile.readOrCreate(location) }
            results.withLock { $0.append((try! result.get().token.text, try! result.get().created)) }
        }
        let all = results.withLock { $0 }
        #expect(Set(all.map(\.0)).count == 1, "every daemon ends with the same token")
        #expect(all.filter(\.1).count == 1, "exactly one wrote it")
        #expect(try TokenFile.read(location).text == all[0].0)
        let attributes = try FileManager.default.attributesOfItem(atPath: location.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.url.path)
        #expect(names == ["token"], "no temporary file is left behind: \(names)")
    }

    @Test func aMissingTokenFileSaysSoInOurWords() {
        let path = "/nonexistent-livery/token"
        #expect(throws: TokenError("cannot read the token file '\(path)': no such file or folder")) {
            try TokenFile.read(URL(filePath: path))
        }
    }
}
