import LiveryHTTP
import Testing

/// The CORS rule (`livery serve --allow-origin`): read routes answer an allowed origin, write
/// routes never, and with no origin allowed nothing changes.
@Suite struct CrossOriginPolicyTests {
    static let page = "http://127.0.0.1:8000"

    static func fields(_ list: [(name: String, value: String)]) -> [String: String] {
        Dictionary(list.map { ($0.name, $0.value) }, uniquingKeysWith: { $1 })
    }

    @Test(arguments: [
        "/v1/css", "/v1/css/abc", "/v1/livery.js", "/v1/version", "/v1/events", "/v1/spec", "/v1/spec/abc",
    ])
    func readRoutesAnswerAnAllowedOrigin(path: String) throws {
        let policy = try CrossOriginPolicy(allowing: [Self.page + "/"])
        for method in ["GET", "HEAD"] {
            let answer = Self.fields(policy.answerFields(origin: Self.page, method: method, path: path))
            #expect(answer["Access-Control-Allow-Origin"] == Self.page)
            #expect(answer["Vary"] == "Origin")
            #expect(answer["Access-Control-Expose-Headers"] == "ETag, Livery-Round")
        }
        let other = Self.fields(policy.answerFields(origin: "http://evil.example", method: "GET", path: path))
        #expect(other == ["Vary": "Origin"])
        let none = Self.fields(policy.answerFields(origin: nil, method: "GET", path: path))
        #expect(none == ["Vary": "Origin"])
    }

    @Test(arguments: [
        ("POST", "/v1/specs"), ("PUT", "/v1/specs/a.yaml"), ("DELETE", "/v1/specs/a.yaml"), ("GET", "/v1/specs"),
        ("POST", "/v1/history/3/restore"), ("GET", "/v1/clients"), ("GET", "/studio/"), ("POST", "/v1/css"),
        ("GET", "/v1/css/a/b"), ("GET", "/v1/css/"), ("GET", "/v1/cssx"),
    ])
    func otherRoutesNeverDo(method: String, path: String) throws {
        let policy = try CrossOriginPolicy(allowing: ["*"])
        #expect(policy.answerFields(origin: Self.page, method: method, path: path).isEmpty)
        let preflight = Self.fields(
            policy.preflightFields(origin: Self.page, requestMethod: method, requestHeaders: nil, path: path))
        #expect(preflight["Access-Control-Allow-Origin"] == nil)
    }

    @Test func aPreflightGrantsTheReportingAndTokenHeadersOnly() throws {
        let policy = try CrossOriginPolicy(allowing: [Self.page])
        let granted = Self.fields(
            policy.preflightFields(
                origin: Self.page, requestMethod: "GET", requestHeaders: "livery-client", path: "/v1/version"))
        #expect(granted["Access-Control-Allow-Origin"] == Self.page)
        #expect(granted["Access-Control-Allow-Headers"] == "Livery-Client, Authorization, Last-Event-ID")
        #expect(granted["Access-Control-Allow-Methods"] == "GET, HEAD")
        #expect(granted["Access-Control-Max-Age"] == "600")
        let refused = Self.fields(
            policy.preflightFields(
                origin: Self.page, requestMethod: "GET", requestHeaders: "livery-client, x-other",
                path: "/v1/version"))
        #expect(refused == ["Vary": "Origin"])
        // The read token may cross to read routes (--read-token-file); a write route is never granted.
        let token = Self.fields(
            policy.preflightFields(
                origin: Self.page, requestMethod: "GET", requestHeaders: "authorization", path: "/v1/css"))
        #expect(token["Access-Control-Allow-Origin"] == Self.page)
        // The browser client resumes its event stream from the version it applied.
        let resume = Self.fields(
            policy.preflightFields(
                origin: Self.page, requestMethod: "GET", requestHeaders: "last-event-id,livery-client",
                path: "/v1/events"))
        #expect(resume["Access-Control-Allow-Origin"] == Self.page)
        let write = Self.fields(
            policy.preflightFields(
                origin: Self.page, requestMethod: "PUT", requestHeaders: "authorization", path: "/v1/specs/a.yaml"))
        #expect(write == ["Vary": "Origin"])
        let foreign = Self.fields(
            policy.preflightFields(
                origin: "http://evil.example", requestMethod: "GET", requestHeaders: "livery-client", path: "/v1/css"))
        #expect(foreign == ["Vary": "Origin"])
    }

    /// The browser client's report: `POST` only, with the same headers as the read routes.
    @Test func aPageMayPostAReport() throws {
        let policy = try CrossOriginPolicy(allowing: [Self.page])
        let granted = Self.fields(
            policy.preflightFields(
                origin: Self.page, requestMethod: "POST", requestHeaders: "livery-client, authorization",
                path: "/v1/reports"))
        #expect(granted["Access-Control-Allow-Origin"] == Self.page)
        #expect(granted["Access-Control-Allow-Methods"] == "POST")
        let answer = Self.fields(policy.answerFields(origin: Self.page, method: "POST", path: "/v1/reports"))
        #expect(answer["Access-Control-Allow-Origin"] == Self.page)
        for method in ["GET", "PUT", "DELETE"] {
            #expect(policy.answerFields(origin: Self.page, method: method, path: "/v1/reports").isEmpty)
        }
        let foreign = Self.fields(
            policy.preflightFields(
                origin: "http://evil.example", requestMethod: "POST", requestHeaders: "livery-client",
                path: "/v1/reports"))
        #expect(foreign == ["Vary": "Origin"])
    }

    @Test func noAllowedOriginMeansNoField() {
        let policy = CrossOriginPolicy.none
        #expect(policy.answerFields(origin: Self.page, method: "GET", path: "/v1/css").isEmpty)
        #expect(
            policy.preflightFields(origin: Self.page, requestMethod: "GET", requestHeaders: nil, path: "/v1/css")
                .isEmpty)
    }

    /// Tokens Studio's plugin frame (origin `null`) reaches its storage with or without
    /// `--allow-origin`, naming whatever headers its storage sends; no other route gains from it.
    // `try!`: a valid origin.
    @Test(arguments: [CrossOriginPolicy.none, try! CrossOriginPolicy(allowing: ["http://127.0.0.1:8000"])])
    func tokensStudiosStorageAnswersAnyOrigin(policy: CrossOriginPolicy) {
        let path = CrossOriginPolicy.tokensStudioPath
        for method in ["GET", "PUT", "POST"] {
            let answer = Self.fields(policy.answerFields(origin: "null", method: method, path: path))
            #expect(answer == ["Access-Control-Allow-Origin": "*", "Access-Control-Expose-Headers": "ETag"])
        }
        let preflight = Self.fields(
            policy.preflightFields(
                origin: "null", requestMethod: "PUT", requestHeaders: "authorization,x-project", path: path))
        #expect(preflight["Access-Control-Allow-Origin"] == "*")
        #expect(preflight["Access-Control-Allow-Methods"] == "GET, PUT, POST")
        #expect(preflight["Access-Control-Allow-Headers"] == "authorization,x-project")
        let bare = Self.fields(
            policy.preflightFields(origin: "null", requestMethod: "GET", requestHeaders: "", path: path))
        #expect(bare["Access-Control-Allow-Headers"] == "Authorization, Content-Type")
        for other in [path + "/x", "/v1/tokens", "/v1/specs"] {
            #expect(policy.answerFields(origin: "null", method: "PUT", path: other).isEmpty)
        }
    }

    @Test(arguments: [
        "ftp://x", "http://", "https://a.example/path", "http://a b", "null", "example.com", "http://u@h",
    ])
    func aValueThatIsNotAnOriginIsRefused(value: String) {
        #expect(throws: CrossOriginPolicyError.self) { try CrossOriginPolicy(allowing: [value]) }
    }

    @Test func originsAreComparedAsBrowsersSendThem() throws {
        let policy = try CrossOriginPolicy(allowing: ["HTTPS://App.Example.com:8443/"])
        #expect(policy.origins == ["https://app.example.com:8443"])
    }
}
