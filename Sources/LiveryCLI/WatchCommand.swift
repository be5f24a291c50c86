import ArgumentParser
import Foundation
import Livery
import LiveryWatch

/// `livery watch [DIR]`: follows a specs folder and prints each reload (short content hash and
/// the identifiers that changed) or each error in compiler style, for spec authors working in
/// an editor. Runs until interrupted.
struct WatchCommand: RegistryCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Follow a specs folder and print each reload or error as it happens."
    )

    @Argument(help: "The specs folder (default: ./Specs).")
    var directory = "Specs"

    @Option(help: "Milliseconds to wait for a burst of writes to settle.")
    var settle = 20

    @OptionGroup var includes: IncludeOptions

    func validate() throws {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isFolder), isFolder.boolValue else {
            throw ValidationError("'\(directory)' is not a folder")
        }
        guard settle >= 0 else { throw ValidationError("--settle must be 0 or more") }
    }

    func run(registry: TraitRegistry) async throws {
        let provider = TraitsProvider(registry: registry)
        let configuration = WatchConfiguration(settleWindow: .milliseconds(settle))
        let loader = try includes.loader(registry: registry)
        let watcher = FolderWatcher(directory: URL(filePath: directory), loader: loader, configuration: configuration)
        Console.line("watching \(directory) (Ctrl-C to stop)")
        for await update in watcher {
            switch await update.completed(by: loader) {
            case .loaded(let spec, let hash):
                do {
                    let report = try provider.load(spec)
                    Console.line(Self.line(hash: hash, report: report, spec: spec))
                } catch {
                    Console.line(Diagnostics.describe(error, folder: directory))
                }
            case .failed(let error):
                Console.line(Diagnostics.describe(error, folder: directory))
            }
        }
    }

    static func line(hash: ContentHash, report: LoadReport, spec: Spec) -> String {
        let now = Calendar.current.dateComponents([.hour, .minute, .second], from: .now)
        let time = [now.hour, now.minute, now.second].map { String(format: "%02d", $0 ?? 0) }.joined(separator: ":")
        let short = String(hash.description.prefix(8))
        let changed = report.changedIdentifiers
        let what: String
        switch changed.count {
        case 0: what = "no identifier changed"
        case 1...6: what = "\(changed.count) changed: " + changed.joined(separator: ", ")
        default: what = "\(changed.count) changed: " + changed.prefix(5).joined(separator: ", ") + ", …"
        }
        let files = spec.files.count == 1 ? "1 file" : "\(spec.files.count) files"
        let targets = report.targetsTouched > 0 ? ", \(report.targetsTouched) targets" : ""
        return "\(time) reload \(short) (\(files), \(spec.identifiers.count) identifiers\(targets)): \(what)"
    }
}
