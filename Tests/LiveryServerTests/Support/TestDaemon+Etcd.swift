import Foundation
import LiveryServer

extension TestDaemon {
    /// Starts a daemon whose specs are in `cluster` under `prefix`, runs `body`, then shuts it down.
    /// `endpoints` replace the cluster's own (a proxy in front of it, say); `configure` sets the
    /// rest of the configuration.
    static func onEtcd<T>(
        _ cluster: EtcdCluster, prefix: String = "/livery/", endpoints: [URL]? = nil,
        watchSilenceLimit: Duration = .seconds(10), historyLimit: Int = 1000,
        configure: (inout DaemonConfiguration) -> Void = { _ in }, _ body: (TestDaemon) async throws -> T
    ) async throws -> T {
        try await with(
            configure: { configuration in
                configuration.etcd = EtcdStoreConfiguration(
                    endpoints: endpoints ?? cluster.endpoints, prefix: prefix, http: cluster.http,
                    watchSilenceLimit: watchSilenceLimit, historyLimit: historyLimit)
                configure(&configuration)
            }, body)
    }

    /// The example files of ``writeExample(to:accent:)``, as a publish would send them.
    static func exampleFiles(accent: String = "#0A84FF") -> [String: String?] {
        [
            "palette.yaml": "variables:\n  colors:\n    accent: \"\(accent)\"\n",
            "card.yaml":
                "include: [palette.yaml]\nspecs:\n  card:\n    - { type: BackgroundColor, color: \"@colors.accent\" }\n    - { type: CornerRadius, radius: 8 }\n",
        ]
    }

    /// Publishes `files` and waits until the daemon serves the bundle they make; returns its ETag.
    @discardableResult
    func publishAndWait(_ files: [String: String?], message: String = "") async throws -> String {
        let reply = try await http.publish(files, message: message)
        guard reply.status == 200, let etag = try reply.json()["etag"] as? String else {
            throw HTTPTestError("publish answered \(reply.status): \(reply.text)")
        }
        guard try await serves(etag) else { throw HTTPTestError("the daemon never served \(etag)") }
        return etag
    }

    /// The current bundle's ETag, or nil while there is none.
    func bundleETag() async throws -> String? {
        let reply = try await http.get("/v1/spec")
        return reply.status == 200 ? reply.header("ETag") : nil
    }

    /// Waits until the daemon serves the bundle with `etag` (5 s at most).
    func serves(_ etag: String?, within timeout: Duration = .seconds(5)) async throws -> Bool {
        try await Self.eventually(timeout: timeout) { try await bundleETag() == etag }
    }
}
