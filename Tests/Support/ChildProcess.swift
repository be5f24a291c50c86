public import Foundation
public import Subprocess
import Synchronization

#if canImport(System)
import System
#else
import SystemPackage
#endif

/// A process a test or a benchmark starts (a daemon, etcd, nginx, a command run to its end):
/// launched through swift-subprocess, its output collected as it comes, signalled, and waited
/// for without holding a thread.
///
/// Not Foundation's `Process`. On Linux its children start with this process's ignored signals
/// (in-process daemons ignore SIGINT to shut down gracefully on it, so a child never ended on
/// ``interrupt()``), and they inherit the socket that tells it of their exit, so a child that
/// leaves a process behind (tmux), or one launched at the same moment from another thread, hides
/// that exit. Its `waitUntilExit` held a cooperative thread all the while: under
/// `swift test --parallel` two such waits took both threads of a two-core machine's pool and the
/// whole run stopped. swift-subprocess starts a child with default signals and only its three
/// standard streams, and waits for it on a process descriptor.
///
/// Used like `Process`: made with its command, then ``start()``ed; ``waitUntilExit()`` is async.
public final class ChildProcess: Sendable {
    /// Where the child's standard error goes.
    public enum Streams: Sendable {
        /// To ``errors``, apart from standard output.
        case separate
        /// Into standard output (``output`` and ``lines``), in the order printed, as a terminal shows them.
        case merged
    }

    /// How the child ended.
    public enum TerminationReason: Sendable {
        /// It exited; ``terminationStatus`` is its exit status.
        case exit
        /// A signal ended it; ``terminationStatus`` is the signal.
        case uncaughtSignal
    }

    /// A child that could not be started or did not end in time.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// The command: the executable (a path, or a name looked up on `PATH`) and its arguments.
    public let command: [String]
    private let configuration: Configuration
    private let streams: Streams
    private let state = Mutex(State())
    private let printed: AsyncThrowingStream<String, any Error>.Continuation
    /// Standard output line by line (with standard error when ``Streams/merged``), from the
    /// first line on; it finishes when the child closes its output. One reader.
    public let lines: AsyncThrowingStream<String, any Error>

    private struct State {
        var processIdentifier: pid_t = 0
        var running = false
        var output: [UInt8] = []
        var errors: [UInt8] = []
        var partialLine: [UInt8] = []
        var ended: (reason: TerminationReason, status: Int32)?
        var run: Task<Void, Never>?
    }

    /// A child running `executable` with `arguments` in `directory` (default: this process's),
    /// with this process's environment and `environment` (a nil value removes a variable).
    public init(
        _ executable: String, _ arguments: [String] = [], environment: [String: String?] = [:],
        in directory: URL? = nil, streams: Streams = .separate
    ) {
        command = [executable] + arguments
        var changes: [Environment.Key: String?] = [:]
        for (name, value) in environment {
            guard let key = Environment.Key(rawValue: name) else { continue }
            changes[key] = value
        }
        configuration = Configuration(
            executable: executable.contains("/") ? .path(FilePath(executable)) : .name(executable),
            arguments: Arguments(arguments),
            environment: .inherit.updating(changes),
            workingDirectory: directory.map { FilePath($0.path) })
        self.streams = streams
        (lines, printed) = AsyncThrowingStream.makeStream(of: String.self)
    }

    /// Runs `executable` to its end and returns the child, with everything it printed.
    public static func run(
        _ executable: String, _ arguments: [String] = [], environment: [String: String?] = [:],
        in directory: URL? = nil, streams: Streams = .separate
    ) async throws -> ChildProcess {
        let child = ChildProcess(executable, arguments, environment: environment, in: directory, streams: streams)
        try await child.start()
        await child.waitUntilExit()
        return child
    }

    /// Launches the child; returns once it runs, or throws if it cannot be launched.
    public func start() async throws {
        let launched = Once<Void>()
        let run = Task { await self.run(reporting: launched) }
        state.withLock { $0.run = run }
        try await launched.value()
    }

    /// Waits until the child has ended and its output has been read.
    public func waitUntilExit() async {
        await state.withLock { $0.run }?.value
    }

    /// Waits at most `timeout` for the child to end; throws (and leaves it running) if it has not.
    public func waitUntilExit(timeout: Duration) async throws {
        let deadline = ContinuousClock.now + timeout
        while isRunning {
            guard ContinuousClock.now < deadline else {
                throw Failure(description: "\(command.joined(separator: " ")) did not end within \(timeout)")
            }
            try await Task.sleep(for: .milliseconds(10))
        }
        await waitUntilExit()
    }

    /// Sends `signal` unless the child has ended.
    public func send(_ signal: Int32) {
        state.withLock { state in
            if state.running { _ = kill(state.processIdentifier, signal) }
        }
    }

    /// SIGTERM: asks the child to end.
    public func terminate() { send(SIGTERM) }
    /// SIGINT, as Ctrl-C.
    public func interrupt() { send(SIGINT) }

    /// The child's process identifier (0 before it starts).
    public var processIdentifier: pid_t { state.withLock { $0.processIdentifier } }
    /// Whether the child has started and not yet ended.
    public var isRunning: Bool { state.withLock { $0.running } }
    /// What it wrote to standard output so far (with standard error when ``Streams/merged``).
    public var output: String { state.withLock { String(decoding: $0.output, as: UTF8.self) } }
    /// What it wrote to standard error so far (empty when ``Streams/merged``).
    public var errors: String { state.withLock { String(decoding: $0.errors, as: UTF8.self) } }
    /// ``output`` as the bytes written.
    public var outputBytes: [UInt8] { state.withLock { $0.output } }
    /// ``errors`` as the bytes written.
    public var errorBytes: [UInt8] { state.withLock { $0.errors } }

    /// Why it ended; only once it has.
    public var terminationReason: TerminationReason {
        state.withLock { state in
            guard let ended = state.ended else { preconditionFailure("\(command[0]) has not ended") }
            return ended.reason
        }
    }

    /// Its exit status, or the signal that ended it; only once it has ended.
    public var terminationStatus: Int32 {
        state.withLock { state in
            guard let ended = state.ended else { preconditionFailure("\(command[0]) has not ended") }
            return ended.status
        }
    }

    private func run(reporting launched: Once<Void>) async {
        let ended: (TerminationReason, Int32)
        do {
            let status: TerminationStatus
            switch streams {
            case .separate:
                status = try await Subprocess.run(
                    configuration, input: .none, output: .sequence, error: .sequence
                ) { execution in
                    began(execution.processIdentifier.value, launched)
                    async let errors: Void = collect(execution.standardError, into: \.errors)
                    await collect(execution.standardOutput, into: \.output)
                    await errors
                }.terminationStatus
            case .merged:
                status = try await Subprocess.run(
                    configuration, input: .none, output: .sequence, error: .combinedWithOutput
                ) { execution in
                    began(execution.processIdentifier.value, launched)
                    await collect(execution.standardOutput, into: \.output)
                }.terminationStatus
            }
            switch status {
            case .exited(let code): ended = (.exit, code)
            case .signaled(let signal): ended = (.uncaughtSignal, signal)
            }
        } catch {
            printed.finish()
            launched.resume(throwing: Failure(description: "cannot run \(command.joined(separator: " ")): \(error)"))
            return
        }
        state.withLock {
            $0.running = false
            $0.ended = ended
        }
    }

    private func began(_ processIdentifier: pid_t, _ launched: Once<Void>) {
        state.withLock {
            $0.processIdentifier = processIdentifier
            $0.running = true
        }
        launched.resume(returning: ())
    }

    /// Reads `sequence` to its end into `stream`; standard output also feeds ``lines``.
    private func collect(
        _ sequence: SubprocessOutputSequence, into stream: any WritableKeyPath<State, [UInt8]> & Sendable
    ) async {
        do {
            for try await buffer in sequence {
                let bytes = buffer.withUnsafeBytes { Array($0) }
                let complete: [String] = state.withLock { state in
                    state[keyPath: stream] += bytes
                    guard stream == \State.output else { return [] }
                    state.partialLine += bytes
                    var lines: [String] = []
                    while let newline = state.partialLine.firstIndex(of: UInt8(ascii: "\n")) {
                        lines.append(String(decoding: state.partialLine[..<newline], as: UTF8.self))
                        state.partialLine.removeSubrange(...newline)
                    }
                    return lines
                }
                for line in complete { printed.yield(line) }
            }
        } catch {
            // The read was cut short because the child ended while a process it left behind
            // holds the pipe: what it printed before is kept.
        }
        if stream == \State.output {
            let rest = state.withLock { String(decoding: $0.partialLine, as: UTF8.self) }
            if !rest.isEmpty { printed.yield(rest) }
            printed.finish()
        }
    }
}

/// A continuation resumed once, by whichever comes first; later resumptions are ignored.
private final class Once<T: Sendable>: Sendable {
    private let state = Mutex<(result: Result<T, any Error>?, waiter: CheckedContinuation<T, any Error>?)>((nil, nil))

    func value() async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let ready: Result<T, any Error>? = state.withLock { state in
                if state.result == nil { state.waiter = continuation }
                return state.result
            }
            if let ready { continuation.resume(with: ready) }
        }
    }

    func resume(returning value: T) { resume(with: .success(value)) }
    func resume(throwing error: any Error) { resume(with: .failure(error)) }

    private func resume(with result: Result<T, any Error>) {
        let waiter: CheckedContinuation<T, any Error>? = state.withLock { state in
            guard state.result == nil else { return nil }
            state.result = result
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(with: result)
    }
}
