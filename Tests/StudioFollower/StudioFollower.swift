import Foundation
import Livery
import LiveryRemote
import LiveryTesting

/// A program that follows a daemon the way an app does: a real `TraitsProvider` fed by
/// `follow(url:)` in the default mode (the version signal), with one `StyledBox` registered under
/// an identifier. After every update it prints the box's background colour (or the error) on one
/// line. Each of its requests carries the `Livery-Client` header with the version it applied, so
/// the daemon's fleet status counts it. The browser tests (Tests/Browser) run it to see a colour
/// saved in Livery Studio reach a program, and the studio's fleet count reach the followers.
///
/// Its wait is 1 s rather than the default 30 s: a client reports what it applied on its next
/// request, and the source starts the wait after an update while the provider is still applying
/// it, so that wait still reports the version before; with 30 s the fleet would learn of the new
/// one only up to 30 s later.
@main enum StudioFollower {
    @MainActor static func main() async {
        let arguments = CommandLine.arguments
        guard arguments.count == 3, let url = URL(string: arguments[1]) else {
            FileHandle.standardError.write(Data("usage: StudioFollower DAEMON-URL IDENTIFIER\n".utf8))
            exit(2)
        }
        let provider = TraitsProvider()
        let box = StyledBox()
        provider.register(box, as: arguments[2])
        await provider.follow(url: url, mode: .version(wait: .seconds(1))) { result in
            let line: String
            switch result {
            case .success: line = "applied \(box.backgroundColor)\n"
            case .failure(let error): line = "error \(error)\n"
            }
            // Unbuffered: stdout is a pipe, and the test waits for each line as it happens.
            FileHandle.standardOutput.write(Data(line.utf8))
        }
    }
}
