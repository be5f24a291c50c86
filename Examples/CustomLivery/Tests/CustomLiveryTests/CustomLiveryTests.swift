import Foundation
import Lighting
import Livery
import LiveryRemote
import Subprocess
import Testing

#if canImport(System)
import System
#else
import SystemPackage
#endif

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

        let schema = try await ExampleProcess.run(["schema"])
        #expect(schema.succeeded && schema.output.contains("\"Glow\""))

        let serve = ["serve", specs.path, "--port", "0", "--token-file", token.path]
        try await ExampleProcess.whileRunning(serve, firstLine: { $0.contains("serving") }) { serving in
            let base = try #require(serving.split(separator: " ").last.map(String.init))
            let url = try #require(URL(string: base))

            let provider = TraitsProvider(registry: try .lighting())
            let lamp = Lamp()
            provider.register(lamp, as: "lamp")
            let following = Task { await provider.follow(url: url, mode: .longPoll(wait: .seconds(5))) }
            defer { following.cancel() }

            let glowing = work.appending(path: "lamp.yaml")
            try "specs:\n  lamp:\n    - { type: Glow, radius: 6, color: \"#FFD60A\" }\n"
                .write(to: glowing, atomically: true, encoding: .utf8)
            let validated = try await ExampleProcess.run(["validate", glowing.path])
            #expect(validated.succeeded, "\(validated.output)")
            let pushed = try await ExampleProcess.run([
                "push", glowing.path, "--server", base, "--token-file", token.path,
            ])
            #expect(pushed.succeeded, "\(pushed.output)")
            try await eventually { lamp.glowRadius == 6 }
            #expect(lamp.glowColor == Color(red: 0xFF, green: 0xD6, blue: 0x0A))

            // `watch` reads the folder, which now uses Glow, with the same registry.
            let reloaded: @Sendable (String) -> Bool = { $0.contains(" reload ") || $0.contains("error") }
            try await ExampleProcess.whileRunning(["watch", specs.path], firstLine: reloaded) { reload in
                #expect(reload.contains(" reload ") && reload.hasSuffix("1 changed: lamp"), "\(reload)")
            }

            try "specs: { lamp: [] }\n".write(to: glowing, atomically: true, encoding: .utf8)
            let reverted = try await ExampleProcess.run([
                "push", glowing.path, "--server", base, "--token-file", token.path,
            ])
            #expect(reverted.succeeded, "\(reverted.output)")
            try await eventually { lamp.glowRadius == 0 }
            #expect(lamp.glowColor == .black)
        }
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

/// This package's `custom-livery`, run as a real process through swift-subprocess.
enum ExampleProcess {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The executable sits beside the test bundle in the build products folder.
    static var built: URL {
        URL(filePath: CommandLine.arguments[0]).deletingLastPathComponent().appending(path: "custom-livery")
    }

    static var executable: Executable { .path(FilePath(built.path)) }

    /// Runs to the end; whether it exited with 0, and everything printed.
    static func run(_ arguments: [String]) async throws -> (succeeded: Bool, output: String) {
        let result = try await Subprocess.run(
            executable, arguments: Arguments(arguments), output: .string(limit: 1 << 20), error: .combinedWithOutput)
        return (result.terminationStatus.isSuccess, result.standardOutput)
    }

    /// Runs `arguments` while `body` runs with the first printed line that `matches`, then
    /// stops it (SIGTERM) and waits for its end. Every line is read, so it never blocks on a full pipe.
    static func whileRunning<T: Sendable>(
        _ arguments: [String], executable: Executable = executable,
        firstLine matches: @escaping @Sendable (String) -> Bool,
        isolation: isolated (any Actor)? = #isolation, _ body: (String) async throws -> T
    ) async throws -> T {
        try await Subprocess.run(
            executable, arguments: Arguments(arguments), input: .none, output: .sequence, error: .combinedWithOutput
        ) { execution in
            let (found, finding) = AsyncStream.makeStream(of: String.self)
            async let read: Void = {
                defer { finding.finish() }
                for try await line in execution.standardOutput.strings() where matches(line) { finding.yield(line) }
            }()
            var lines = found.makeAsyncIterator()
            guard let line = await lines.next() else {
                try await read
                throw Failure(description: "custom-livery \(arguments) ended before printing the line waited for")
            }
            let result = try await body(line)
            try execution.send(signal: .terminate)
            try await read
            return result
        }.closureResult
    }
}
