import ArgumentParser
import Foundation
import LiveryTUF

/// `livery signing init DIR` and `livery signing rotate ROLE`: the keys and root metadata of
/// signed delivery (`livery serve --signing DIR`).
struct SigningCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "signing",
        abstract: "Make and rotate the keys of signed delivery (The Update Framework).",
        discussion: """
            livery serve --signing DIR signs with the online keys (timestamp, snapshot, targets); keep root.key \
            offline. With livery serve --signing DIR --offline-targets the daemon holds no targets key: move \
            targets.key out of DIR (the daemon refuses to start while it is there) to the machine that pushes, \
            and push with livery push --sign-with KEY, which signs the targets of the version it publishes.
            """,
        subcommands: [Create.self, Rotate.self]
    )

    struct Create: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "init",
            abstract: "Make a root key, the online keys (timestamp, snapshot, targets) and 1.root.json in a new folder."
        )

        @Argument(help: "The folder to make; it must not exist or be empty.")
        var directory: String

        func run() throws {
            let folder = try SigningFolder.create(
                at: URL(filePath: directory, directoryHint: .isDirectory), now: Date())
            let root = try folder.latestRoot().signed
            print("made \(folder.rootFile(version: 1).path) and the keys of every role:")
            for role in [RootMetadata.roleName] + SigningFolder.onlineRoles {
                print(
                    "  \(role): \(try root.keys(of: role).keyids.joined(separator: ", "))  \(folder.keyFile(of: role).path)"
                )
            }
            print(
                "Keep \(folder.keyFile(of: RootMetadata.roleName).path) offline; livery serve --signing reads the others."
            )
            print(
                "For --offline-targets, move \(folder.keyFile(of: TargetsMetadata.roleName).path) to the machine that pushes (livery push --sign-with)."
            )
            print("Clients start from \(folder.rootFile(version: 1).lastPathComponent), as distributed with them.")
        }
    }

    struct Rotate: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rotate",
            abstract:
                "Give a role a new key in the next root version, signed by the current root key (and the new one, for root)."
        )

        @Argument(help: "The role: root, timestamp, snapshot or targets.")
        var role: String

        @Option(help: "The folder livery signing init made.")
        var signing = "Signing"

        func validate() throws {
            guard ([RootMetadata.roleName] + SigningFolder.onlineRoles).contains(role) else {
                throw ValidationError("unknown role '\(role)': expected root, timestamp, snapshot or targets")
            }
        }

        func run() throws {
            let folder = SigningFolder(url: URL(filePath: signing, directoryHint: .isDirectory))
            let version = try folder.rotate(role, now: Date())
            print(
                "made \(folder.rootFile(version: version).path): \(role) has a new key, \(folder.keyFile(of: role).path)"
            )
            if role == TargetsMetadata.roleName {
                print("With --offline-targets, move the new key off \(signing) before restarting livery serve.")
            }
            if role != RootMetadata.roleName {
                print("Restart livery serve --signing \(signing) so that it signs with the new key.")
            }
        }
    }
}
