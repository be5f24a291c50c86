import ArgumentParser
import Foundation
import LiveryServer
import NIOHTTP1

/// `livery keys`: add, list and revoke the keys of a running daemon (scope `admin`).
struct KeysCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys",
        abstract: "Add, list or revoke the keys a livery serve accepts (needs an admin key).",
        discussion: """
            livery keys add NAME --scope push,rollout --environment staging   prints the new key, once
            livery keys list                                                 names, scopes, environments, dates
            livery keys revoke NAME
            Scopes: read, push, rollout, promote, approve, admin (admin holds every scope).
            """
    )

    @Argument(help: "add, list or revoke; nothing lists.")
    var action = "list"

    @Argument(help: "With add and revoke: the key's name.")
    var name: String?

    @Option(help: "With add: the scopes, separated by commas.")
    var scope: String?

    @Option(help: "With add: the environments, separated by commas, or '*' for every environment.")
    var environment: String?

    @Option(help: "The daemon's base URL.")
    var server = "http://127.0.0.1:7878"

    @Option(
        help:
            "A file holding an admin key (default: the push token livery serve writes, \(TokenFile.defaultLocation().path))."
    )
    var tokenFile: String?

    func validate() throws {
        guard URL(string: server)?.host != nil else { throw ValidationError("--server '\(server)' is not a URL") }
        switch action {
        case "list":
            guard name == nil, scope == nil, environment == nil else {
                throw ValidationError("list takes no name, --scope nor --environment")
            }
        case "add":
            guard name != nil else { throw ValidationError("add needs a name: livery keys add ci --scope push") }
            guard let scope else { throw ValidationError("add needs --scope, such as --scope push,rollout") }
            for part in Self.list(scope) where KeyScope(rawValue: part) == nil {
                throw ValidationError(
                    "unknown scope '\(part)': use \(KeyScope.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            guard environment != nil else {
                throw ValidationError("add needs --environment, such as --environment staging or '*'")
            }
        case "revoke":
            guard name != nil else { throw ValidationError("revoke needs a name: livery keys revoke ci") }
        default:
            throw ValidationError("unknown action '\(action)': use add, list or revoke")
        }
    }

    func run() async throws {
        let tokenURL = tokenFile.map { URL(filePath: $0) } ?? TokenFile.defaultLocation()
        let call = DaemonCall(server: server, token: try TokenFile.read(tokenURL), action: "keys \(action)")
        let outcome: DaemonCall.Outcome
        switch action {
        case "add":
            let body = KeyGrant(
                name: name ?? "", scopes: Self.list(scope ?? "").compactMap(KeyScope.init(rawValue:)),
                environments: Self.list(environment ?? ""))
            outcome = try await call.send(post: true, "/v1/keys", json: try JSONEncoder().encode(body))
        case "revoke":
            let escaped = (name ?? "").addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? ""
            outcome = try await call.send(method: .DELETE, "/v1/keys/\(escaped)")
        default:
            outcome = try await call.send("/v1/keys")
        }
        switch outcome {
        case .ok(let body):
            try show(body)
        case .held(let body):
            print(ApprovalOption.heldText(body))
        case .refused(let lines):
            for line in lines { PushCommand.complain(line) }
            throw ExitCode(1)
        }
    }

    private func show(_ body: Data) throws {
        switch action {
        case "add":
            let added = try JSONDecoder().decode(IssuedKey.self, from: body)
            print(added.key)
            PushCommand.complain(
                "key '\(added.name)' added: \(added.scopes.map(\.rawValue).joined(separator: ",")) on "
                    + "\(added.environments.joined(separator: ",")); it is shown this once")
        case "revoke":
            print("key '\(name ?? "")' revoked")
        default:
            for key in try JSONDecoder().decode([String: [KeyListing]].self, from: body)["keys"] ?? [] {
                let dates =
                    key.created.map { "  created \($0)  last used \(key.lastUsed ?? "never")" } ?? "  (command line)"
                print(
                    "\(key.name)  \(key.scopes.map(\.rawValue).joined(separator: ","))  \(key.environments.joined(separator: ","))\(dates)"
                )
            }
        }
    }

    private static func list(_ text: String) -> [String] {
        text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }
}
