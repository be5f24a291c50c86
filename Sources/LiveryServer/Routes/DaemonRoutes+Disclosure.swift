import Foundation
import Hummingbird

extension DaemonRoutes {
    /// Whether `request` bears the push token. Only its bearer learns where the specs live (the
    /// folder's absolute path, etcd's endpoints): a reader needs neither, and an attacker would
    /// use both.
    func disclosesPlaces(to request: Request) -> Bool {
        token.authorizes(request.headers[.authorization])
    }

    /// `text` as `request` may read it: without the push token, paths in the specs folder become
    /// relative to it (the folder itself `.`) and each etcd endpoint becomes `etcd`.
    func shown(_ text: String, to request: Request) -> String {
        guard !disclosesPlaces(to: request) else { return text }
        var text = text
        if configuration.etcd == nil {
            let folder = configuration.directory.standardizedFileURL
            let spellings = Set([folder.path, folder.resolvingSymlinksInPath().path]).sorted { $0.count > $1.count }
            for spelling in spellings where spelling.count > 1 {
                text = text.replacingOccurrences(of: spelling + "/", with: "").replacingOccurrences(
                    of: spelling, with: ".")
            }
        }
        for endpoint in configuration.etcd?.endpoints ?? [] {
            text = text.replacingOccurrences(of: endpoint.absoluteString, with: "etcd")
        }
        return text
    }

    /// `diagnostic` as `request` may read it (``shown(_:to:)``); its message parts go when the
    /// message changed, since they would spell the places out again.
    func shown(_ diagnostic: Diagnostic, to request: Request) -> Diagnostic {
        var shown = diagnostic
        shown.file = self.shown(diagnostic.file, to: request)
        shown.message = self.shown(diagnostic.message, to: request)
        if shown != diagnostic { shown.messageParts = nil }
        return shown
    }

    /// The problem a store error answers `request` with, its places shown as ``shown(_:to:)`` says.
    func problem(_ error: StoreError, for request: Request) -> Problem {
        var problem = error.problem
        problem.detail = shown(problem.detail, to: request)
        problem.errors = problem.errors?.map { shown($0, to: request) }
        return problem
    }
}
