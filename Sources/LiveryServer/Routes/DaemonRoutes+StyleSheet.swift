import Hummingbird
import Livery

extension DaemonRoutes {
    /// `POST /v1/css?dryRun=true[&theme=NAME]`: one look of the specs the body's files would
    /// make (the body of `POST /v1/specs`), validated as that publish would be and written
    /// nowhere: `theme`'s, or without it the look of no theme, alone, with no theme selectors.
    /// Livery Studio draws its preview of unsaved edits with it, so the page has no copy of the
    /// CSS rules.
    func styleSheetDryRun(_ request: Request) async throws(Problem) -> Response {
        guard isDryRun(request) else {
            throw Problem(
                kind: .dryRunOnly,
                detail: "POST /v1/css renders and writes nothing: add ?dryRun=true (GET /v1/css is the live stylesheet)"
            )
        }
        let change: ChangeSet
        do throws(Problem) {
            change = try await changeSet(of: request).0
        } catch {
            throw refused(error, path: "POST /v1/css")
        }
        let spec: Spec
        do throws(StoreError) {
            spec = try await writer.write(change, precondition: .none, dryRun: true).spec
        } catch {
            throw refused(error, path: "POST /v1/css")
        }
        let styleSheet: StyleSheet
        do {
            styleSheet = try spec.styleSheet(lookOf: request.uri.queryParameters["theme"].map(String.init))
        } catch {
            throw Problem(kind: .unknownTheme, detail: error.message)
        }
        var headers = HTTPFields()
        headers[.contentType] = StyleSheetSnapshot.contentType
        headers[.cacheControl] = "no-store"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: styleSheet.text)))
    }
}
