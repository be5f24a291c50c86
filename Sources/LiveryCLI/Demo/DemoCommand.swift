import ArgumentParser
import Foundation
import Livery
import LiveryServer
import Logging
import ServiceLifecycle

/// `livery demo [DIR]`: the whole loop on one screen. Watches a specs folder, serves it (so a
/// second terminal can `livery push`), and redraws a small terminal UI — a screen, a card with a
/// title, body, badge and button — on every applied change. `t` switches the theme, `q` or
/// Ctrl-C quits; a rejected change shows its error at the bottom while the last good look stays.
struct DemoCommand: RegistryCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Restyle a small terminal UI live from a specs folder, with the daemon running for pushes.",
        discussion: """
            Without DIR it uses ./Specs, or, if there is none, writes the built-in example specs \
            into a fresh folder and says where. Keys: t next theme, q or Ctrl-C quit.
            """
    )

    @Argument(help: "The specs folder (default: ./Specs, else a fresh copy of the built-in examples).")
    var directory: String?

    @OptionGroup var options: DaemonOptions

    func validate() throws {
        // Checked before anything starts, so no daemon comes up only to be torn down.
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else {
            throw ValidationError("livery demo draws on a terminal: run it with standard input and output on one")
        }
        if let directory {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: directory, isDirectory: &isFolder), isFolder.boolValue else {
                throw ValidationError("'\(directory)' is not a folder")
            }
        }
    }

    func run(registry: TraitRegistry) async throws {
        let folder = try specsFolder()
        let token = try options.loadToken(say: Console.line)
        // The screen is the demo's output: the daemon's log would scribble over it.
        let quiet = Logger(label: "livery.demo") { _ in SwiftLogNoOpLogHandler() }
        var configuration = DaemonConfiguration(
            directory: URL(filePath: folder, directoryHint: .isDirectory), host: options.host, port: options.port,
            registry: registry, studio: options.studio)
        configuration.tls = options.tls
        options.warnIfExposed(configuration)
        let daemon = LiveryDaemon(configuration: configuration, token: token, logger: quiet)
        let services = ServiceGroup(configuration: ServiceGroupConfiguration(services: [daemon], logger: quiet))
        let (events, sink) = AsyncStream.makeStream(of: DemoEvent.self)
        let serving = Task {
            do {
                try await services.run()
            } catch {
                sink.yield(.daemonStopped("\(error)"))
            }
        }
        let listening: Int
        do {
            listening = try await daemon.listeningPort()
        } catch {
            serving.cancel()
            FileHandle.standardError.write(
                Data("livery: cannot serve on \(options.host):\(options.port): \(error) (try --port 0)\n".utf8))
            throw ExitCode.failure
        }
        let url = "http://\(options.host):\(listening)"
        Console.line("livery: serving \(folder) on \(url); push to it from another terminal")
        try await DemoLoop(folder: folder, serverURL: url, registry: registry).run(events: events, sink: sink)
        await services.triggerGracefulShutdown()
        await serving.value
    }

    /// The folder given, else `./Specs`, else a fresh folder holding the built-in examples.
    private func specsFolder() throws -> String {
        if let directory { return directory }
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: "Specs", isDirectory: &isFolder), isFolder.boolValue {
            return "Specs"
        }
        let fresh = FileManager.default.temporaryDirectory
            .appending(
                path: "livery-demo-\(UUID().uuidString.prefix(8).lowercased())/Specs", directoryHint: .isDirectory)
        try EmbeddedSpecs.write(to: fresh)
        Console.line("livery: no ./Specs here; wrote the example specs to \(fresh.path) (edit them there)")
        return fresh.path
    }
}
