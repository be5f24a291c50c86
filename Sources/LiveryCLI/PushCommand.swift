import ArgumentParser
import AsyncHTTPClient
import Foundation
import Livery
import LiveryRemote
import LiveryServer
import LiveryTUF
import NIOSSL

/// `livery push FILE... [--delete PATH...] [-m MESSAGE]`: uploads spec files to a running
/// `livery serve`.
///
/// One file alone is a `PUT`; several files, a `--delete` or a message make one atomic publish
/// (`POST /v1/specs`): all land together or none do, so an identifier can move from one file to
/// another in one step. The server validates the result together with the files it already has;
/// its errors are printed like a compiler's (`file:line:column: error: message`), every place
/// named under the pushed file's local folder (``naming(localFile:remotePath:)``). Any refusal
/// makes the exit status 1. With `--sign-with KEY` it is a publish whose targets metadata is
/// signed here (``OfflineSigning``), for a daemon that keeps its targets key offline.
///
/// With `--at TIME`, or several shares (`--rollout 1%,10%,50%,100%`) with `--every` or
/// `--steps`, the push is scheduled instead (`PushCommand+Schedule.swift`).
struct PushCommand: RegistryCommand {
    static let configuration = CommandConfiguration(
        commandName: "push",
        abstract: "Upload spec files to a running livery serve, which validates them before writing."
    )

    @Argument(help: "The spec files to push.")
    var files: [String]

    @Option(help: "The daemon's base URL.")
    var server = "http://127.0.0.1:7878"

    @OptionGroup var environment: EnvironmentOption

    @OptionGroup var approval: ApprovalOption

    @Option(help: "The push token file (default: where livery serve writes it, \(TokenFile.defaultLocation().path)).")
    var tokenFile: String?

    @Option(
        name: .customLong("as"), help: "The path in the specs folder (with exactly one file; default: the file's name)."
    )
    var remotePath: String?

    @Option(
        help:
            "Push only if nothing changed: with one file, that file's ETag on the server; with a publish, the bundle's ETag."
    )
    var ifMatch: String?

    @Option(help: "A path to remove in the same publish (repeatable).")
    var delete: [String] = []

    @Option(name: .shortAndLong, help: "Why: the message the publish is recorded with (history, on etcd).")
    var message: String?

    @Option(
        help:
            "Roll the result out to this share of clients (10%, 0.5%) instead of publishing it: a candidate version, the stable one unchanged. Several shares ending at 100% (1%,10%,50%,100%) with --every or --steps: a progressive rollout."
    )
    var rollout: String?

    @Option(
        help:
            "Publish at this time (RFC 3339, such as 2026-12-02T18:00:00Z), validated now and kept by the daemon until then; with a progressive rollout, its first step's time (default: now)."
    )
    var at: String?

    @Option(help: "With several --rollout shares: widen to the next share at this interval (90s, 30m, 2h, 1d).")
    var every: String?

    @Option(help: "With several --rollout shares: each step's time, comma-separated RFC 3339 times, one per share.")
    var steps: String?

    @Flag(help: "With --rollout: replace the candidate of the rollout that runs (otherwise refused, 409).")
    var replace = false

    @Option(
        help:
            "Sign the targets metadata of the version the push makes (with --rollout P%, of the rollout it starts) with this targets key file, for a daemon started with --offline-targets. With --at, signed now and checked at that time: another signed write first makes the push fail then."
    )
    var signWith: String?

    /// Whether the push is one atomic publish rather than a PUT of one file.
    var isPublish: Bool {
        files.count > 1 || !delete.isEmpty || message != nil || rollout != nil || signWith != nil || at != nil
    }

    @Option(help: "A PEM file of the certificate authorities to trust for an https --server (default: the system's).")
    var cacert: String?

    func validate() throws {
        guard !files.isEmpty || !delete.isEmpty else {
            throw ValidationError("name at least one file to push or --delete")
        }
        if let remotePath, files.count != 1 {
            throw ValidationError("--as \(remotePath) names the path of one file; give exactly one file with it")
        }
        guard URL(string: server)?.host != nil else { throw ValidationError("--server '\(server)' is not a URL") }
        for share in shares where Rollout.basisPoints(parsing: share) == nil {
            throw ValidationError("--rollout '\(share)' is not a share from 0% to 100% with at most two decimals")
        }
        try validateSchedule()
        if replace, rollout == nil {
            throw ValidationError("--replace replaces a rollout's candidate; give --rollout P%")
        }
        if signWith != nil, shares.count > 1 {
            throw ValidationError(
                "--sign-with signs one version, and each step of a progressive rollout publishes its own: start the rollout with --rollout P% --sign-with, then change it with livery rollout set|complete --sign-with"
            )
        }
        if let cacert {
            do throws(FileSystemError) {
                try LocalFile.checkReadable(cacert)
            } catch {
                throw ValidationError("--cacert \(cacert): \(error.reason)")
            }
        }
    }

    func run(registry: TraitRegistry) async throws {
        let token = try TokenFile.read(tokenFile.map { URL(filePath: $0) } ?? TokenFile.defaultLocation())
        var configuration = HTTPClient.Configuration()
        configuration.tlsConfiguration = .livery(trustingCertificatesAt: cacert)
        let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
        do {
            try await push(token: token, client: client, registry: registry)
        } catch {
            try await client.shutdown()
            throw error
        }
        try await client.shutdown()
    }

    private func push(token: BearerToken, client: HTTPClient, registry: TraitRegistry) async throws {
        if isPublish {
            try await publish(token: token, client: client, registry: registry)
            return
        }
        var failed = false
        for file in files {
            let remote = remotePath ?? URL(filePath: file).lastPathComponent
            guard let body = Self.contents(of: file) else {
                failed = true
                continue
            }
            let outcome = try await PushRequest(
                server: server, token: token, path: remote, ifMatch: ifMatch, environment: environment.environment,
                bypassApproval: approval.bypassApproval
            )
            .send(body, client: client, naming: Self.naming(localFile: file, remotePath: remote))
            switch outcome {
            case .accepted(let status, let etag):
                print("\(file): \(status == 201 ? "created" : "updated") \(remote) (ETag \(etag))")
            case .held(let body):
                print("\(file): \(ApprovalOption.heldText(body))")
            case .refused(let lines):
                failed = true
                for line in lines { Self.complain(line) }
            }
        }
        if failed { throw ExitCode(1) }
    }

    /// All files and removals in one `POST /v1/specs`.
    private func publish(token: BearerToken, client: HTTPClient, registry: TraitRegistry) async throws {
        var contents: [String: String?] = [:]
        var localNames: [String: String] = [:]
        for file in files {
            let remote = remotePath ?? URL(filePath: file).lastPathComponent
            guard let data = Self.contents(of: file) else { throw ExitCode(1) }
            contents[remote] = .some(String(decoding: data, as: UTF8.self))
            localNames[remote] = file
        }
        for path in delete { contents[path] = .some(nil) }
        let call = DaemonCall(
            server: server, token: token, client: client, action: "push", environment: environment.environment,
            bypassApproval: approval.bypassApproval)
        let naming = SpecFileNaming(folder: "", renamed: localNames)
        var signed: OfflineSigning.Signed?
        if let signWith {
            signed = try await OfflineSigning(
                key: try KeyFile.read(URL(filePath: signWith)), call: call, registry: registry
            )
            .sign(contents, rollout: rollout.flatMap(Rollout.basisPoints(parsing:)), now: Date())
        }
        if isScheduled {
            // A scheduled push depends on nothing now: its signed targets name what it makes.
            try await schedule(contents, call: call, naming: naming, headers: signed?.targets.map { [$0] } ?? [])
            return
        }
        let headers = signed?.headers(ifMatch: ifMatch) ?? []
        let outcome = try await call.publish(
            files: contents, message: message ?? "", ifMatch: ifMatch, rollout: rollout, replace: replace,
            headers: headers, naming: naming)
        switch outcome {
        case .ok(let body) where rollout != nil:
            print(try RolloutSummary.decoded(from: body).text)
        case .ok(let body):
            let result = try JSONDecoder().decode(PublishResult.self, from: body)
            let revision = result.revision.map { " at revision \($0)" } ?? ""
            print("published \(result.paths.joined(separator: ", "))\(revision) (bundle ETag \(result.etag))")
        case .held(let body):
            print(ApprovalOption.heldText(body))
        case .refused(let lines):
            for line in lines { Self.complain(line) }
            throw ExitCode(1)
        }
    }

    /// How a refusal names the daemon's files here. When the local path ends with the path the
    /// file is pushed as (`Specs/sub/b.yaml` as `sub/b.yaml`), the local folder mirrors the specs
    /// folder and every file is named under it, so an editor can open each place; otherwise
    /// (`--as` another name) only the pushed file has a local name and the others keep the
    /// daemon's.
    static func naming(localFile: String, remotePath: String) -> SpecFileNaming {
        if localFile == remotePath { return .asStored }
        if localFile.hasSuffix("/" + remotePath) {
            return SpecFileNaming(folder: String(localFile.dropLast(remotePath.count + 1)))
        }
        return SpecFileNaming(folder: "", renamed: [remotePath: localFile])
    }

    /// The bytes of a file to push, or `nil` after saying why it cannot be read.
    private static func contents(of file: String) -> Data? {
        do throws(FileSystemError) {
            return try LocalFile.contents(of: file)
        } catch {
            complain("\(file): error: cannot read the file: \(error.reason)")
            return nil
        }
    }

    static func complain(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
