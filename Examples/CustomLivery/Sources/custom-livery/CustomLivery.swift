import Lighting
import Livery
import LiveryCLI

// sample: Sources/LiveryCLI/LiveryCLI.docc/YourOwnTraits.md
/// This team's `livery`: every command (serve and its pushes, validate, watch, schema,
/// identifiers, demo) knows the `Glow` trait.
@main
enum CustomLivery {
    static func main() async throws {
        await LiveryCommand.main(registry: try .lighting())
    }
}
// sample end
