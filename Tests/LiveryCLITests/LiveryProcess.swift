import Foundation

/// The built `livery` executable, run as a real process with its output captured.
struct LiveryProcess {
    /// `livery` sits beside the test bundle in the build products folder.
    static var executable: URL {
        URL(filePath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("livery")
    }

    let process = Process()
    private let output = Pipe()

    init(_ arguments: [String], in folder: URL? = nil) {
        process.executableURL = Self.executable
        process.arguments = arguments
        process.currentDirectoryURL = folder
        process.standardOutput = output
        process.standardError = output
    }

    /// Runs to the end; returns the exit status and everything printed.
    static func run(_ arguments: [String], in folder: URL? = nil) throws -> (status: Int32, output: String) {
        let livery = LiveryProcess(arguments, in: folder)
        try livery.process.run()
        let data = livery.output.fileHandleForReading.readDataToEndOfFile()
        livery.process.waitUntilExit()
        return (livery.process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    func start() throws { try process.run() }

    /// Lines as the process prints them.
    var lines: AsyncThrowingStream<String, any Error> {
        let handle = output.fileHandleForReading
        return AsyncThrowingStream { continuation in
            // A plain thread: `availableData` blocks, and Linux's FileHandle has no async bytes.
            let reader = Thread {
                var pending = Data()
                while true {
                    let chunk = handle.availableData
                    if chunk.isEmpty { break }
                    pending.append(chunk)
                    while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                        continuation.yield(String(decoding: pending[pending.startIndex..<newline], as: UTF8.self))
                        pending = Data(pending[(newline + 1)...])
                    }
                }
                continuation.finish()
            }
            reader.start()
        }
    }

    func stop() {
        if process.isRunning { process.interrupt() }
        process.waitUntilExit()
    }
}
