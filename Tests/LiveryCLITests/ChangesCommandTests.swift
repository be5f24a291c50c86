import Foundation
import LiveryTestSupport
import LiveryTesting
import Testing

/// `livery environments protect`, a push held as a change request, and `livery changes`, run as
/// processes against a real daemon.
@Suite(.timeLimit(.minutes(2)), .inotifyShared)
struct ChangesCommandTests {
    @Test func protectPushListApproveAndBypass() async throws {
        let setup = try await CommandTestDaemon(prefix: "livery-changes-cli")
        defer { setup.serving.cancel() }
        let (folder, local) = (setup.folder, setup.local)
        let server = ["--server", setup.server]
        let admin = server + ["--token-file", local.url("token").path]

        let protected = try await LiveryProcess.run(["environments", "protect", "default"] + admin)
        #expect(protected.status == 0, "\(protected.output)")
        #expect(protected.output.contains("protected environment default: 1 approval per change"))
        var keyFiles: [String: [String]] = [:]
        for (name, scope) in [("alice", "push"), ("bob", "approve")] {
            let added = try await LiveryProcess.run(
                ["keys", "add", name, "--scope", scope, "--environment", "default"] + admin)
            let key = try #require(added.output.split(separator: "\n").first { $0.hasPrefix("lvr_") })
            try local.write(name, key + "\n")
            _ = chmod(local.url(name).path, 0o600)
            keyFiles[name] = server + ["--token-file", local.url(name).path]
        }
        let alice = try #require(keyFiles["alice"])
        let bob = try #require(keyFiles["bob"])

        let held = try await LiveryProcess.run(["push", local.url("box.yaml").path, "-m", "rounder"] + alice)
        #expect(held.status == 0, "\(held.output)")
        #expect(held.output.contains("change request 1 is waiting for 1 approval"), "\(held.output)")
        #expect(
            try String(contentsOf: folder.url("box.yaml"), encoding: .utf8).contains("radius: 1"),
            "nothing written before the approval")

        let listed = try await LiveryProcess.run(["changes"] + bob)
        #expect(listed.output.contains("protected: 1 approval per change"), "\(listed.output)")
        #expect(listed.output.contains("1  pending  publish  by alice  0/1 approvals"), "\(listed.output)")
        let shown = try await LiveryProcess.run(["changes", "show", "1"] + bob)
        #expect(shown.output.contains("~ box.yaml") && shown.output.contains("identifier box changes"))

        let own = try await LiveryProcess.run(["changes", "approve", "1"] + alice)
        #expect(own.status == 1 && own.output.contains("403"), "\(own.output)")
        let approved = try await LiveryProcess.run(["changes", "approve", "1", "-m", "fine"] + bob)
        #expect(approved.status == 0, "\(approved.output)")
        #expect(approved.output.contains("1  applied") && approved.output.contains("approved by bob"))
        #expect(try String(contentsOf: folder.url("box.yaml"), encoding: .utf8).contains("radius: 2"))

        try local.write("box.yaml", "specs:\n  box:\n    - { type: CornerRadius, radius: 3 }\n")
        let bypassed = try await LiveryProcess.run(
            ["push", local.url("box.yaml").path, "--bypass-approval", "-m", "hotfix"] + admin)
        #expect(bypassed.status == 0 && bypassed.output.contains("published box.yaml"), "\(bypassed.output)")
        let history = try await LiveryProcess.run(["history"] + server)
        #expect(history.output.contains("(approval bypassed)"), "\(history.output)")
        // Each step of the change is an entry: who, then no paths, then what happened.
        for step in [
            "  alice    change 1 requested by alice: rounder", "  bob    change 1 approved by bob (1 of 1)",
            "  bob    change 1 applied as revision ", "  alice  box.yaml  change 1: rounder (approved by bob)",
        ] {
            #expect(history.output.contains(step), "\(step) in \(history.output)")
        }
    }
}
