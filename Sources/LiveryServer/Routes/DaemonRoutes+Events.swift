import Hummingbird
import LiveryHTTP

extension DaemonRoutes {
    /// `GET /v1/events`: a Server-Sent Events stream of bundles.
    ///
    /// It opens with a `retry:` hint and the current bundle (skipped when `Last-Event-ID` already
    /// names it), then sends one `spec` event per new bundle and a `: heartbeat` comment whenever
    /// the stream has been quiet for the heartbeat interval. It ends when the client goes away
    /// or the daemon shuts down.
    func events(_ request: Request) -> Response {
        eventStream(request, opensWithCurrent: true, version: { $0.etagText }, frame: { $0.eventFrame })
    }

    /// A Server-Sent Events stream of one frame per change of `version` (a snapshot's version as
    /// its events' `id:` names it): first the `retry:` hint; the current snapshot's frame when
    /// `opensWithCurrent` or when `Last-Event-ID` names another version (unless it names this
    /// one); then a frame per new version and a `: heartbeat` comment after each quiet interval.
    func eventStream(
        _ request: Request, opensWithCurrent: Bool, version: @escaping @Sendable (BundleSnapshot) -> String,
        frame: @escaping @Sendable (BundleSnapshot) -> ByteBuffer
    ) -> Response {
        let lastEventID = request.headers.first { $0.name.canonicalName == "last-event-id" }?.value
        var headers = HTTPFields()
        headers[.contentType] = "text/event-stream"
        headers[.cacheControl] = "no-cache"
        let body = ResponseBody { writer in
            try await writer.write(ByteBuffer(string: EventStreamFrame.retry(self.configuration.retryHint)))
            guard let (subscription, current) = self.hub.subscribe() else {
                try await writer.finish(nil)
                return
            }
            defer { subscription.cancel() }
            var sent = current.map(version).map(EntityTag.opaque(of:))
            if let current, let sentVersion = sent, opensWithCurrent || lastEventID != nil,
                lastEventID.map(EntityTag.opaque(of:)) != sentVersion
            {
                try await writer.write(frame(current))
            }
            streaming: while true {
                switch await subscription.next(timeout: self.configuration.heartbeatInterval) {
                case .bundle(let snapshot):
                    let next = EntityTag.opaque(of: version(snapshot))
                    guard next != sent else { continue }
                    try await writer.write(frame(snapshot))
                    sent = next
                case .timedOut:
                    try await writer.write(ByteBuffer(string: EventStreamFrame.comment("heartbeat")))
                case .closed:
                    break streaming
                }
            }
            try await writer.finish(nil)
        }
        return Response(status: .ok, headers: headers, body: body)
    }
}
