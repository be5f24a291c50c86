package import Livery
import LiveryWatch

/// The demo's state and what each event does to it: loads specs into the provider, switches
/// themes on `t`, and keeps the status (theme, content hash, last error) the renderer shows.
/// No terminal here, so tests drive it with events and check the frames.
package final class DemoSession {
    package let provider: TraitsProvider
    package let scene = DemoScene()
    package private(set) var status: DemoStatus
    /// The specs folder as the user named it, so errors read `Specs/card.yaml:3:14: error: …`.
    private let folder: String

    package init(folder: String, serverURL: String?, registry: TraitRegistry = .standard) {
        self.folder = folder
        provider = TraitsProvider(registry: registry)
        status = DemoStatus(folder: folder, serverURL: serverURL)
        scene.register(on: provider)
    }

    /// Whether the demo goes on after an event.
    package enum Outcome: Equatable { case proceed, quit }

    /// Applies an event; returns whether to go on.
    package func handle(_ event: DemoEvent) -> Outcome {
        switch event {
        case .specs(.loaded(let spec, let hash)):
            do {
                try provider.load(spec)
                status.contentHash = String(hash.description.prefix(8))
                status.theme = provider.theme
                status.error = nil
            } catch {
                status.error = Diagnostics.describe(error, folder: folder)
            }
        case .specs(.failed(let error)):
            status.error = Diagnostics.describe(error, folder: folder)
        case .key(let byte):
            return pressed(byte)
        case .resize:
            break
        case .daemonStopped(let reason):
            status.serverURL = nil
            status.error = "livery: the push daemon stopped: \(reason)"
        case .quit:
            return .quit
        }
        return .proceed
    }

    /// One frame of the UI for a terminal of `width` × `height` cells.
    package func frame(width: Int, height: Int) -> Canvas {
        DemoRenderer.render(scene, status: status, width: width, height: height)
    }

    private func pressed(_ byte: UInt8) -> Outcome {
        switch byte {
        case UInt8(ascii: "q"), UInt8(ascii: "Q"), 0x03, 0x04:  // q, Ctrl-C, Ctrl-D (raw mode: no signals)
            return .quit
        case UInt8(ascii: "t"), UInt8(ascii: "T"):
            nextTheme()
        default:
            break
        }
        return .proceed
    }

    /// default → each theme in name order → default.
    private func nextTheme() {
        let themes = (provider.spec?.themes ?? []).sorted()
        let cycle: [String?] = [nil] + themes
        let index = cycle.firstIndex(of: provider.theme) ?? 0
        let next = cycle[(index + 1) % cycle.count]
        do {
            try provider.setTheme(next)
            status.theme = next
        } catch {
            status.error = Diagnostics.describe(error, folder: folder)
        }
    }
}
