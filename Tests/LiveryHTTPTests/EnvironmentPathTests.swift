import LiveryHTTP
import Testing

/// `EnvironmentPath`, the one rule for an environment's paths: a `/v1/…` route loses its `/v1`
/// under `/v1/environments/{env}`, an OpenFeature `/ofrep/v1/…` route is kept whole, and `split`
/// gives back the route each time.
@Suite struct EnvironmentPathTests {
    @Test(arguments: [
        ("/v1/spec", "/v1/environments/staging/spec"),
        ("/v1/specs/card.yaml", "/v1/environments/staging/specs/card.yaml"),
        ("/ofrep/v1/evaluate/flags/colors.accent", "/v1/environments/staging/ofrep/v1/evaluate/flags/colors.accent"),
        ("/ofrep/v1/events", "/v1/environments/staging/ofrep/v1/events"),
    ])
    func anEnvironmentsPathSplitsBackIntoItsRoute(route: String, environmentPath: String) {
        #expect(EnvironmentPath.path(route, environment: "staging") == environmentPath)
        let split = EnvironmentPath.split(environmentPath)
        #expect(split.environment == "staging" && split.path == route)
        #expect(EnvironmentPath.split(route).environment == nil && EnvironmentPath.split(route).path == route)
    }

    @Test func theRoutersPatternNamesTheParameter() {
        #expect(
            EnvironmentPath.path("/ofrep/v1/evaluate/flags", environment: nil)
                == "/v1/environments/{environment}/ofrep/v1/evaluate/flags")
    }
}
