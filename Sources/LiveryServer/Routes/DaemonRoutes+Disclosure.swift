import Foundation
import Hummingbird

extension DaemonRoutes {
    /// The rule on places (``PlaceDisclosure``) for this daemon.
    var places: PlaceDisclosure {
        PlaceDisclosure(configuration: configuration, access: access)
    }

    /// Whether `request` bears the push token, which alone learns where the specs live.
    func disclosesPlaces(to request: Request) -> Bool {
        places.discloses(to: request.headers[.authorization])
    }

    /// `text` as `request` may read it (``PlaceDisclosure``).
    func shown(_ text: String, to request: Request) -> String {
        places.shown(text, disclosing: disclosesPlaces(to: request))
    }

    /// `diagnostic` as `request` may read it (``PlaceDisclosure``).
    func shown(_ diagnostic: Diagnostic, to request: Request) -> Diagnostic {
        places.shown(diagnostic, disclosing: disclosesPlaces(to: request))
    }

    /// `problem` as `request` may read it (``PlaceDisclosure``).
    func shown(_ problem: Problem, to request: Request) -> Problem {
        places.shown(problem, disclosing: disclosesPlaces(to: request))
    }

    /// The problem a store error answers `request` with, its places shown as `request` may read them.
    func problem(_ error: StoreError, for request: Request) -> Problem {
        shown(error.problem, to: request)
    }
}
