import Hummingbird
import Livery

extension DaemonRoutes {
    /// `GET /v1/traits`: the trait types the daemon's registry knows, with the fields of each,
    /// the kind of value a field holds and its bounds: what Livery Studio shows and edits.
    func traitCatalog() -> Response {
        JSONBody.response(TraitCatalog(registry: configuration.registry), headers: [.cacheControl: "no-cache"])
    }
}
