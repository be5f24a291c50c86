import Foundation
import Lighting
import Livery
import LiveryRemote
import Testing

/// The whole loop with a team's own trait: this package's `custom-livery` serves a folder,
/// accepts a pushed spec that uses `Glow`, and a program following the daemon with the same
/// registry applies the glow and reverts it when the next push drops it.
@Suite(.timeLimit(.minutes(2))) struct CustomLiveryTests {
    final class Lamp: Glowing {
        var glowRadius = 0.0
        var glowColor = Color.black
    }

    @MainActor @Test func servesPushesAndAClientAppliesAndRevertsTheCustomTrait() async throws {
        let work = FileManager.default.temporaryDirectory.appending(path: "custom-livery-\(UUID().uuidString)")
        let specs = work.appending(path: "Specs")
        try FileManager.default.createDirectory(at: specs, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let token = work.appending(path: "token")
        try "custom-livery-test-token-0123456789\n".write(to: token, atomically: true, encoding: .utf8)
        try "specs: { lamp: [] }\n".write(to: specs.appending(path: "lamp.yaml"), atomically: true, encoding: .utf8)

        let schema = try ExampleProcess.run(["schema"])
        #expect(schema.status == 0 && schema.output.contains("\"Glow\""))

        let serve = try ExampleProcess(["serve", specs.path, "--port", "0", "--token-file", token.path])
        defer { serve.stop() }
        let base = try #require(
            try await serve.firstLine { $0.contains("serving") }.split(separator: " ").last.map(String.init))
        let url = try #require(URL(string: base))

        let provider = TraitsProvider(registry: try .lighting())
        let lamp = Lamp()
        provider.register(lamp, as: "lamp")
        let following = Task { await provider.follow(url: url, mode: .longPoll(wait: .seconds(5))) }
        defer { following.cancel() }

        let glowing = work.appending(path: "lamp.yaml")
        try "specs:\n  lamp:\n    - { type: Glow, radius: 6, color: \"#FFD60A\" }\n"
            .write(to: glowing, atomically: true, encoding: .utf8)
        let validated = try ExampleProcess.run(["validate", glowing.path])
        #expect(validated.status == 0, "\(validated.output)")
        let pushed = try ExampleProcess.run(["push", glowing.path, "--server", base, "--token-file", token.path])
        #expect(pushed.status == 0, "\(pushed.output)")
        try await eventually { lamp.glowRadius == 6 }
        #expect(lamp.glowColor == Color(red: 0xFF, green: 0xD6, blue: 0x0A))

        // `watch` reads the folder, which now uses Glow, with the same registry.
        let watch = try ExampleProcess(["watch", specs.path])
        defer { watch.stop() }
        let reload = try await watch.firstLine { $0.contains(" reload ") || $0.contains("error") }
        #expect(reload.contains(" reload ") && reload.hasSuffix("1 changed: lamp"), "\(reload)")

        try "specs: { lamp: [] }\n".write(to: glowing, atomically: true, encoding: .utf8)
        let reverted = try ExampleProcess.run(["push", glowing.path, "--server", base, "--token-file", token.path])
        #expect(reverted.status == 0, "\(reverted.output)")
        try await eventually { lamp.glowRadius == 0 }
        #expect(lamp.glowColor == .black)
    }

    /// Waits until `condition` holds, or records an issue after 20 s.
    @MainActor func eventually(
        sourceLocation: Testing.SourceLocation = #_sourceLocation, _ condition: () -> Bool
    ) async throws {
        let deadline = ContinuousClock.now + .seconds(20)
        while ContinuousClock.now < deadline {
            if condition() { return }
            try await Task.sleep(for: .milliseconds(20))
        }
        Issue.record("condition not met in 20 s", sourceLocation: sourceLocation)
    }
}

/// This package's `custom-livery`, run as a real process.
final class ExampleProcess {
    /// The executable sits beside the test bundle in the build products folder.
    static var executable: URL {
        URL(filePath: CommandLine.arguments[0]).deletingLastPathComponent().appending(path: "custom-livery")
    }

    let process = Process()
    private let output = Pipe()

    init(_ arguments: [String]) throws {
        process.executableURL = Self.executable
        process.arguments = arguments
        process.standardOutput = output
        process.standardError = output
        try process.run()
    }

    /// Runs to the end; the exit status and everything printed.
    static func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let running = try ExampleProcess(arguments)
        let data = running.output.fileHandleForReading.readDataToEndOfFile()
        running.process.waitUntilExit()
        return (running.process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// The first printed line that `matches`.
    func firstLine(where matches: @escaping @Sendable (String) -> Bool) async throws -> String {
        let handle = output.fileHandleForReading
        return try await withCheckedThrowingContinuation { continuation in
            // A plain thread: `availableData` blocks, and Linux's FileHandle has no async bytes.
            Thread {
                var pending = Data()
                while true {
                    let chunk = handle.availableData
                    if chunk.isEmpty { break }
                    pending.append(chunk)
                    while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                        let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                        pending = Data(pending[(newline + 1)...])
                        if matches(line) { return continuation.resume(returning: line) }
                    }
                }
                continuation.resume(throwing: CocoaError(.fileReadUnknown))
            }.start()
        }
    }

    func stop() {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }
}
