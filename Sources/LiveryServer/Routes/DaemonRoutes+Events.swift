import Hummingbird

extension DaemonRoutes {
    /// `GET /v1/events`: a Server-Sent Events stream of bundles.
    ///
    /// It opens with a `retry:` hint and the current bundle (skipped when `Last-Event-ID` already
    /// names it), then sends one `spec` event per new bundle and a `: heartbeat` comment whenever
    /// the stream has been quiet for the heartbeat interval. It ends when the client goes away
    /// or the daemon shuts down.
    func events(_ request: Request) -> Response {
        let lastEventID = request.headers.first { $0.name.canonicalName == "last-event-id" }?.value
        var headers = HTTPFields()
        headers[.contentType] = "text/event-stream"
        headers[.cacheControl] = "no-cache"
        let body = ResponseBody { writer in
            try await self.streamEvents(to: &writer, lastEventID: lastEventID)
        }
        return Response(status: .ok, headers: headers, body: body)
    }

    private func streamEvents(to writer: inout any ResponseBodyWriter, lastEventID: String?) async throws {
        try await writer.write(ByteBuffer(string: EventStreamFrame.retry(configuration.retryHint)))
        guard let (subscription, current) = hub.subscribe() else {
            try await writer.finish(nil)
            return
        }
        defer { subscription.cancel() }
        var sent = current?.etag
        if let current, lastEventID.map(current.etag.isNamed(by:)) != true {
            try await writer.write(current.eventFrame)
        }
        streaming: while true {
            switch await subscription.next(timeout: configuration.heartbeatInterval) {
            case .bundle(let snapshot):
                guard snapshot.etag != sent else { continue }
                try await writer.write(snapshot.eventFrame)
                sent = snapshot.etag
            case .timedOut:
                try await writer.write(ByteBuffer(string: EventStreamFrame.comment("heartbeat")))
            case .closed:
                break streaming
            }
        }
        try await writer.finish(nil)
    }
}
