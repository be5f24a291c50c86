import Lighting
import Livery
import LiveryCLI

/// This team's `livery`: every command (serve and its pushes, validate, watch, schema,
/// identifiers, demo) knows the `Glow` trait.
@main
enum CustomLivery {
    static func main() async throws {
        await LiveryCommand.main(registry: try .lighting())
    }
}
