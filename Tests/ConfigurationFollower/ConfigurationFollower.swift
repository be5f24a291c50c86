import Configuration
import Foundation
import LiveryConfiguration

/// `ConfigurationFollower URL KEY`: prints the string setting KEY that the daemon at URL serves,
/// read through a ``SpecConfigProvider`` that follows the daemon. A program that uses
/// LiveryConfiguration only this way links no inotify; LinkedLibrariesTests reads its
/// dynamic section to check it.
@main
enum ConfigurationFollower {
    static func main() async throws {
        let arguments = CommandLine.arguments.dropFirst()
        guard arguments.count == 2, let url = URL(string: arguments[arguments.startIndex]) else {
            print("usage: ConfigurationFollower URL KEY")
            exit(2)
        }
        let settings = try await SpecConfigProvider(url: url)
        let config = ConfigReader(provider: settings)
        print(config.string(forKey: ConfigKey(arguments[arguments.startIndex + 1]), default: "(none)"))
    }
}
