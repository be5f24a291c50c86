import Livery
import LiveryCLI

/// The `livery` executable: everything lives in `LiveryCLI`, so tests can drive the commands and
/// a team can build its own `livery` with its own traits.
@main
enum LiveryMain {
    static func main() async {
        await LiveryCommand.main(registry: .standard)
    }
}
