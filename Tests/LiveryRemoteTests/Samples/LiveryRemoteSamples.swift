import Foundation
import Livery
import LiveryHTTP
import LiveryRemote
import Logging

// The Swift samples of the guides that follow a daemon (LiveryRemote's catalogue, and the staged
// rollouts guide of LiveryServer's), each word for word between its markers
// (Tests/Docs/check_docs.py holds the documents to them): compiled with the tests, so a sample
// that no longer builds fails the build.

func remoteLandingPageSample(logger: Logger) {
    // sample: Sources/LiveryRemote/LiveryRemote.docc/LiveryRemote.md
    let provider = TraitsProvider()
    let task = Task { @MainActor in
        await provider.follow(url: URL(string: "http://127.0.0.1:7878")!, logger: logger)
    }
    // … later
    task.cancel()
    // sample end
}

@MainActor
func followURLSample(logger: Logger) {
    // sample: Sources/LiveryRemote/LiveryRemote.docc/FollowingARemoteSpec.md
    let provider = TraitsProvider()
    // On the main actor (or any actor): loads each new spec, keeps the last good one on errors.
    let follow = Task { await provider.follow(url: URL(string: "http://127.0.0.1:7878")!, logger: logger) }
    // Plain HTTP (nginx, S3, a CDN): poll the file itself with conditional GETs.
    // await provider.follow(url: URL(string: "https://cdn.example.com/theme.json")!, mode: .poll(interval: .seconds(10)))
    follow.cancel()  // stops fetching at once
    // sample end
}

@MainActor
func fleetClientSample(provider: TraitsProvider, daemonA: URL, daemonB: URL, daemonC: URL) async throws {
    // sample: Sources/LiveryRemote/LiveryRemote.docc/FollowingARemoteSpec.md
    let configuration = RemoteSpecSource.Configuration(
        identity: try ClientIdentity(name: "shop-web", instance: "web-3", appVersion: "2.4.1"),
        cacheDirectory: URL(filePath: "/var/cache/shop-web"))
    await provider.follow(urls: [daemonA, daemonB, daemonC], configuration: configuration)
    // sample end
}

@MainActor
func signedDeliverySample(provider: TraitsProvider, daemon: URL, configuration: RemoteSpecSource.Configuration) async {
    // sample: Sources/LiveryRemote/LiveryRemote.docc/FollowingARemoteSpec.md
    let root = Bundle.main.url(forResource: "1.root", withExtension: "json")!  // from `livery signing init`
    await provider.follow(url: daemon, configuration: configuration, trust: .tuf(root: root))
    // sample end
}

@MainActor
func skipIdentifierSample(provider: TraitsProvider, identity: ClientIdentity, front: URL) async {
    // sample: Sources/LiveryRemote/LiveryRemote.docc/ClientsOlderThanTheSpec.md
    var configuration = RemoteSpecSource.Configuration(identity: identity)
    configuration.unknownTraits = .skipIdentifier  // default: .rejectSpec
    await provider.follow(url: front, configuration: configuration)
    // sample end
}

@MainActor
func reportProblemSample(provider: TraitsProvider, front: URL) {
    // sample: Sources/LiveryServer/LiveryServer.docc/StagedRollouts.md
    let applied = AppliedVersion()
    let task = Task { await provider.follow(url: front, appliedVersion: applied) }
    // … the checkout button is unreadable with the new look:
    applied.reportProblem("checkout button unreadable")  // or source.reportProblem(_:) on a RemoteSpecSource
    // sample end
    task.cancel()
}
