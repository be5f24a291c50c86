import Foundation
import LiveryServer
import LiveryTesting
import Testing

/// The daemon end of the finding of Fuzz/FuzzRequest: a `%00` in a spec path cut the path short
/// in the system calls, so `card.yaml%00.json` served `card.yaml` as JSON, and a push to
/// `new.yaml%00/x.json` created a folder `new.yaml`. Control characters are refused with 400 now.
@Suite(.timeLimit(.minutes(1))) struct ControlCharacterPathTests {
    @Test func aNulInAReadIs400() async throws {
        try await TestDaemon.with { server in
            let reply = try await server.http.get("/v1/specs/card.yaml%00.json")
            #expect(reply.status == 400)
            #expect(try reply.json()["type"] as? String == "urn:livery:problem:forbidden-path")
            #expect(
                (try reply.json()["detail"] as? String)?.hasPrefix(
                    #""card.yaml\0.json" contains the control character U+0000"#) == true)
        }
    }

    @Test(arguments: ["new.yaml%00/x.json", "new%0A.yaml", "new%1B%5B31m.yaml"])
    func aControlCharacterInAPushIs400AndWritesNothing(urlPath: String) async throws {
        try await TestDaemon.with { server in
            let before = try folderEntries(server.folder)
            let reply = try await server.http.put("/v1/specs/\(urlPath)", "specs: {}\n")
            #expect(reply.status == 400)
            #expect(try reply.json()["type"] as? String == "urn:livery:problem:forbidden-path")
            #expect(try folderEntries(server.folder) == before)
        }
    }
}
