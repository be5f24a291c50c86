import Foundation

/// Where the specs live (the folder's absolute path, etcd's endpoints), told only to the
/// bearer of a key that may push to the default environment: a reader needs neither, and an attacker would use both. For
/// everyone else, each answer that names places names them relative to the specs folder (the
/// folder itself `.`), and each etcd endpoint `etcd`.
struct PlaceDisclosure: Sendable {
    private let access: AccessRule
    /// The folder's spellings, longest first (as given, and with its links resolved); none on etcd.
    private let folderSpellings: [String]
    private let endpoints: [String]

    /// The rule for a daemon with `configuration` whose keys `access` tells.
    init(configuration: DaemonConfiguration, access: AccessRule) {
        self.access = access
        if configuration.etcd == nil {
            let folder = configuration.directory.standardizedFileURL
            folderSpellings = Set([folder.path, folder.resolvingSymlinksInPath().path]).filter { $0.count > 1 }
                .sorted { $0.count > $1.count }
        } else {
            folderSpellings = []
        }
        endpoints = configuration.etcd?.endpoints.map(\.absoluteString) ?? []
    }

    /// Whether a request with this `Authorization` value bears a key that may push.
    func discloses(to authorization: String?) -> Bool {
        access.disclosesPlaces(to: authorization, in: access.defaultEnvironment)
    }

    /// `text` with its places as the reader may see them.
    func shown(_ text: String, disclosing: Bool) -> String {
        guard !disclosing else { return text }
        var text = text
        for spelling in folderSpellings {
            text = text.replacingOccurrences(of: spelling + "/", with: "").replacingOccurrences(of: spelling, with: ".")
        }
        for endpoint in endpoints {
            text = text.replacingOccurrences(of: endpoint, with: "etcd")
        }
        return text
    }

    /// `diagnostic` as the reader may see it; its message parts go when the message changed,
    /// since they would spell the places out again.
    func shown(_ diagnostic: Diagnostic, disclosing: Bool) -> Diagnostic {
        var shown = diagnostic
        shown.file = self.shown(diagnostic.file, disclosing: disclosing)
        shown.message = self.shown(diagnostic.message, disclosing: disclosing)
        if shown != diagnostic { shown.messageParts = nil }
        return shown
    }

    /// `problem` (its detail and its errors) as the reader may see it.
    func shown(_ problem: Problem, disclosing: Bool) -> Problem {
        var shown = problem
        shown.detail = self.shown(problem.detail, disclosing: disclosing)
        shown.errors = problem.errors?.map { self.shown($0, disclosing: disclosing) }
        return shown
    }

    /// `state` as the reader may see it: the errors that keep the specs from loading, shown.
    func shown(_ state: BundleState, disclosing: Bool) -> BundleState {
        guard case .unavailable(let errors) = state else { return state }
        return .unavailable(errors.map { shown($0, disclosing: disclosing) })
    }
}
