// This file imports LiveryRemote alone, as a following program does: every type the client's
// API takes or throws must be nameable from it (the file does not compile otherwise).
import LiveryRemote
import Testing

@Suite struct RemoteExportsTests {
    @Test func aBlankReadTokenThrowsATokenErrorNamedThroughLiveryRemote() {
        #expect(throws: TokenError.self) { try BearerToken("  \n") }
    }

    @Test func aBadClientIdentityThrowsAClientHeaderErrorNamedThroughLiveryRemote() {
        #expect(throws: ClientHeaderError.self) { try ClientIdentity(name: "", instance: "i-1") }
    }
}
