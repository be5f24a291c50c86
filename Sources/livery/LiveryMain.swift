import LiveryCLI

/// The `livery` executable: everything lives in `LiveryCLI`, so tests can drive the commands.
@main
enum LiveryMain {
    static func main() async {
        await LiveryCommand.main()
    }
}
