import Foundation
import Livery
import LiveryRemote
import LiveryWatch

/// A provider with ``MixBox`` targets (every capability the figures' specs use, the demo card's
/// mix among them) all registered as "card", in an isolation domain of its own, following a
/// folder (figure 1) or a daemon (figure 2) and logging each applied reload.
actor CardStyler {
    let provider = TraitsProvider()
    let boxes: [MixBox]

    init(targets: Int) {
        boxes = (0..<targets).map { _ in MixBox() }
        for box in boxes { provider.register(box, as: "card") }
    }

    func follow(_ folder: URL, log: AppliedLog) async {
        await provider.follow(directory: folder) { outcome in Self.record(outcome, in: log) }
    }

    /// Follows the daemon at `url`; with `trust`, verifying what it applies (figure 14).
    func follow(
        _ url: URL, mode: RemoteSpecSource.Mode, instance: String? = nil, trust: RemoteSpecSource.Trust? = nil,
        log: AppliedLog
    ) async {
        var configuration = RemoteSpecSource.Configuration()
        if let instance { configuration.identity = ClientIdentity(fitting: "livery-bench", instance: instance) }
        await provider.follow(url: url, mode: mode, configuration: configuration, trust: trust) { outcome in
            Self.record(outcome, in: log)
        }
    }

    private static func record(_ outcome: Result<LoadReport, any Error>, in log: AppliedLog) {
        switch outcome {
        case .success(let report): log.record(targetsTouched: report.targetsTouched)
        case .failure(let error): log.recordFailure(error)
        }
    }
}

extension Duration {
    /// The duration in nanoseconds, as a `Double` for statistics.
    var nanoseconds: Double {
        Double(components.seconds) * 1e9 + Double(components.attoseconds) / 1e9
    }
}
