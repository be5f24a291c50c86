import Foundation
import Livery
import LiveryWatch
import UnixSignals

/// The demo's terminal side: full-screen mode, the watcher, keys and signals feeding one event
/// stream, and a redraw after every event, until the session says quit. The terminal is
/// restored however the loop ends.
struct DemoLoop {
    let folder: String
    let serverURL: String
    let registry: TraitRegistry

    func run(events: AsyncStream<DemoEvent>, sink: AsyncStream<DemoEvent>.Continuation) async throws {
        // Trap the signals before raw mode, so no SIGTERM can kill the process with the terminal
        // left raw. Ctrl-C arrives as a key in raw mode; SIGINT still comes from `kill`.
        let signals = await UnixSignalsSequence(trapping: .sigterm, .sigint, .sighup, .sigwinch)
        let signalling = Task {
            for await signal in signals { sink.yield(signal == .sigwinch ? .resize : .quit) }
        }
        let watcher = SpecWatcher(directory: URL(filePath: folder, directoryHint: .isDirectory), registry: registry)
        let watching = Task {
            for await update in watcher { sink.yield(.specs(update)) }
        }
        defer {
            signalling.cancel()
            watching.cancel()
        }
        let session = DemoSession(folder: folder, serverURL: serverURL, registry: registry)
        let terminal = try Terminal()
        defer { terminal.restore() }
        KeyReader.start(deliver: { sink.yield(.key($0)) }, ended: { sink.yield(.quit) })
        draw(session, on: terminal)
        for await event in events {
            if session.handle(event) == .quit { break }
            draw(session, on: terminal)
        }
        await watcher.stop()
    }

    private func draw(_ session: DemoSession, on terminal: Terminal) {
        let size = terminal.size
        terminal.draw(session.frame(width: size.width, height: size.height).lines())
    }
}
