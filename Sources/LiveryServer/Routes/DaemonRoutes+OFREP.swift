import Foundation
import Hummingbird
import Livery
import LiveryHTTP

/// OpenFeature's remote evaluation protocol (OFREP, `open-feature/protocol`'s
/// `service/openapi.yaml`): any OpenFeature SDK with the generic OFREP provider reads the live
/// values (``OFREPFlags``) by flag key.
extension DaemonRoutes {
    /// The protocol's routes, served from the current bundle of each environment
    /// (`/ofrep/v1/…` and `/v1/environments/{environment}/ofrep/v1/…`).
    static var ofrepRoutes: [Route] {
        [
            Route(.post, "/ofrep/v1/evaluate/flags/{key}") { routes, request, context in
                try await routes.evaluateFlag(request, key: context.parameters.get("key") ?? "")
            },
            Route(.post, "/ofrep/v1/evaluate/flags") { routes, request, _ in try await routes.evaluateFlags(request) },
            Route(.get, ofrepEventsPath) { routes, request, _ in routes.ofrepEvents(request) },
        ]
    }

    /// The protocol's change notification, named in every bulk answer's `eventStreams`.
    static let ofrepEventsPath = "/ofrep/v1/events"

    /// `GET /ofrep/v1/events`: the protocol's Server-Sent Events change notification (its ADR
    /// 0008): an `event: message` with `{"type": "refetchEvaluation", "etag"}` each time the
    /// version signal changes (a new version; a rollout started, widened, aborted or completed),
    /// `id:` and `etag` the signal's tag; `: heartbeat` after each quiet interval. A
    /// `Last-Event-ID` naming another signal than the current one gets one at once.
    func ofrepEvents(_ request: Request) -> Response {
        eventStream(request, opensWithCurrent: false, version: { Self.versionSignal(of: $0) }) { snapshot in
            let signal = Self.versionSignal(of: snapshot)
            let data = #"{"type":"refetchEvaluation","etag":\#(SpecNode.text(signal).canonicalJSON)}"#
            return ByteBuffer(string: EventStreamFrame(id: signal, event: "message", data: data).text)
        }
    }

    /// What the version signal says of `snapshot`: its rollout's tag while one is in the signal,
    /// else its version.
    private static func versionSignal(of snapshot: BundleSnapshot) -> String {
        snapshot.rollout?.signalTag ?? snapshot.etag.opaque
    }

    /// `POST /ofrep/v1/evaluate/flags/{key}` with `{"context": {…}}`: `{key, value, reason,
    /// variant, metadata}`, or `{key, errorCode, errorDetails}` (404 `FLAG_NOT_FOUND`, 400 for
    /// the rest).
    func evaluateFlag(_ request: Request, key rawKey: String) async throws(Problem) -> Response {
        let key = rawKey.removingPercentEncoding ?? rawKey
        let outcome: OFREPOutcome
        switch try await ofrepOutcome(request) {
        case .success(let found): outcome = found
        case .failure(let failure): return failure.response(key: key)
        }
        guard let evaluation = outcome.evaluation(of: key) else { return outcome.failure(of: key).response(key: key) }
        return Self.ofrepResponse(evaluation, headers: [.cacheControl: "no-store"])
    }

    /// `POST /ofrep/v1/evaluate/flags` with `{"context": {…}}`: `{"flags": […], "metadata"}`
    /// with an entity tag of the version and the context's outcome, and 304 for a matching
    /// `If-None-Match` (a polling provider's answer when nothing it reads changed).
    func evaluateFlags(_ request: Request) async throws(Problem) -> Response {
        let outcome: OFREPOutcome
        switch try await ofrepOutcome(request) {
        case .success(let found): outcome = found
        case .failure(let failure): return failure.response(key: nil)
        }
        let etag = outcome.etag
        let headers: HTTPFields = [.eTag: etag.description, .cacheControl: "no-cache"]
        if Self.isNotModified(request, etag: etag) { return Response(status: .notModified, headers: headers) }
        // The event stream of the environment the request addressed, at the path it used.
        let environment = EnvironmentPath.split(request.uri.path).environment
        let events = environment.map { EnvironmentPath.path(Self.ofrepEventsPath, environment: String($0)) }
        return Self.ofrepResponse(outcome.bulk(events: events ?? Self.ofrepEventsPath), headers: headers)
    }

    /// The outcome of the request's context against the current bundle, or the protocol's
    /// failure; a 413 for a body past `--max-body-bytes` and a 503 before the first bundle.
    private func ofrepOutcome(_ request: Request) async throws(Problem) -> Result<OFREPOutcome, OFREPFailure> {
        let body = try await collectBody(request)
        guard let current = hub.snapshot else { throw shown(.noBundle(hub.errors), to: request) }
        do throws(OFREPFailure) {
            return .success(try OFREPOutcome(OFREPContext(body: body), current: current) { hub.snapshot(version: $0) })
        } catch {
            return .failure(error)
        }
    }

    private static func ofrepResponse(_ json: String, headers extra: HTTPFields) -> Response {
        var headers = extra
        headers[.contentType] = "application/json"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: json)))
    }
}
