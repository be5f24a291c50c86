package import Hummingbird

/// Every kind of problem the daemon answers with, each with its one status and title.
///
/// A kind is the last part of a problem's type URI (`urn:livery:problem:<kind>`); programs test
/// it, so a kind answers with the same status and title from every route (RFC 9457 §3.1.3: the
/// title does not change from one occurrence to the next). What differs between occurrences
/// goes in the problem's `detail`.
package enum ProblemKind: String, CaseIterable, Sendable {
    // The request as sent: before and beside any route.
    case badHost = "bad-host"
    case misdirected = "misdirected"
    case unauthorized = "unauthorized"
    case readOnly = "read-only"
    case missingScope = "missing-scope"
    case uriTooLong = "uri-too-long"
    case headersTooLarge = "headers-too-large"
    case methodNotAllowed = "method-not-allowed"
    case requestTimeout = "request-timeout"
    case tooManyHeldRequests = "too-many-held-requests"
    case tooManyEvaluations = "too-many-evaluations"
    case badRequest = "bad-request"
    case bodyTooLarge = "body-too-large"
    case badWait = "bad-wait"
    case dryRunOnly = "dry-run-only"

    // What the request names does not exist.
    case notFound = "not-found"
    case versionNotKept = "version-not-kept"
    case revisionNotFound = "revision-not-found"
    case unknownTheme = "unknown-theme"
    case noRollout = "no-rollout"
    case unknownKey = "unknown-key"
    case scheduleNotFound = "schedule-not-found"
    case unknownEnvironment = "unknown-environment"
    case unknownChange = "unknown-change"

    // A write the specs or the store refuse.
    case forbiddenPath = "forbidden-path"
    case preconditionFailed = "precondition-failed"
    case invalidSpec = "invalid-spec"
    case tooManyFiles = "too-many-files"
    case changeTooLarge = "change-too-large"
    case writeConflict = "write-conflict"
    case keyExists = "key-exists"
    case fixedKey = "fixed-key"
    case reservedKeyName = "reserved-key-name"
    case environmentConflict = "environment-conflict"
    case writeCancelled = "write-cancelled"
    case insufficientStorage = "insufficient-storage"
    case revisionCompacted = "revision-compacted"
    case targetsNotSigned = "targets-not-signed"

    // A rollout's state refuses the change.
    case rolloutRunning = "rollout-running"
    case rolloutNotRunning = "rollout-not-running"
    case rolloutUnchanged = "rollout-unchanged"
    case rolloutChanged = "rollout-changed"
    case scheduleEnded = "schedule-ended"

    // A change request's review refuses the step.
    case ownChange = "own-change"
    case alreadyApproved = "already-approved"
    case changeClosed = "change-closed"
    case changeExpired = "change-expired"
    case tooManyChanges = "too-many-changes"
    case bypassRefused = "bypass-refused"

    // The daemon cannot answer now.
    case noBundle = "no-bundle"
    case storeUnavailable = "store-unavailable"
    case storeUnreachable = "store-unreachable"
    case storeFailed = "store-failed"
    case fileSystem = "file-system"

    /// The HTTP status every problem of the kind answers with.
    package var status: HTTPResponse.Status {
        switch self {
        case .badHost, .badRequest, .badWait, .dryRunOnly, .forbiddenPath, .reservedKeyName: .badRequest
        case .unauthorized: .unauthorized
        // Forbidden, not unprocessable: the token authenticates the writer, but only the
        // targets key authorizes a version, and the same request cannot succeed again.
        case .readOnly, .missingScope, .targetsNotSigned, .ownChange, .bypassRefused: .forbidden
        case .notFound, .versionNotKept, .revisionNotFound, .unknownTheme, .noRollout, .unknownKey, .scheduleNotFound,
            .unknownEnvironment, .unknownChange:
            .notFound
        case .methodNotAllowed: .methodNotAllowed
        case .requestTimeout: .requestTimeout
        case .rolloutRunning, .rolloutNotRunning, .rolloutUnchanged, .rolloutChanged, .scheduleEnded, .writeConflict,
            .keyExists, .fixedKey, .environmentConflict, .alreadyApproved, .changeClosed, .changeExpired,
            .tooManyChanges:
            .conflict
        case .revisionCompacted: .gone
        case .preconditionFailed: .preconditionFailed
        case .bodyTooLarge, .changeTooLarge: .contentTooLarge
        case .uriTooLong: .uriTooLong
        case .misdirected: .misdirectedRequest
        case .invalidSpec, .tooManyFiles: .unprocessableContent
        case .headersTooLarge: .requestHeaderFieldsTooLarge
        case .tooManyEvaluations: .tooManyRequests
        case .fileSystem: .internalServerError
        case .storeFailed: .badGateway
        case .tooManyHeldRequests, .writeCancelled, .noBundle, .storeUnavailable, .storeUnreachable:
            .serviceUnavailable
        case .insufficientStorage: HTTPResponse.Status(code: 507, reasonPhrase: "Insufficient Storage")
        }
    }

    /// The short summary every problem of the kind carries.
    package var title: String {
        switch self {
        case .badHost: "Bad Host"
        case .misdirected: "Misdirected request"
        case .unauthorized: "Unauthorized"
        case .readOnly: "Read-only"
        case .missingScope: "Missing scope"
        case .uriTooLong: "URI too long"
        case .headersTooLarge: "Request header fields too large"
        case .methodNotAllowed: "Method not allowed"
        case .requestTimeout: "Request timeout"
        case .tooManyHeldRequests: "Too many held requests"
        case .tooManyEvaluations: "Too many evaluations"
        case .badRequest: "Bad request"
        case .bodyTooLarge: "Body too large"
        case .badWait: "Bad wait"
        case .dryRunOnly: "Dry runs only"
        case .notFound: "Not found"
        case .versionNotKept: "Version not kept"
        case .revisionNotFound: "No such revision"
        case .unknownTheme: "Unknown theme"
        case .noRollout: "No rollout"
        case .unknownKey: "Unknown key"
        case .scheduleNotFound: "No such scheduled change"
        case .unknownEnvironment: "Unknown environment"
        case .unknownChange: "Unknown change request"
        case .forbiddenPath: "Forbidden spec path"
        case .preconditionFailed: "Precondition failed"
        case .invalidSpec: "The specs would not validate"
        case .tooManyFiles: "Too many files"
        case .changeTooLarge: "Change too large"
        case .writeConflict: "Write conflict"
        case .keyExists: "Key exists"
        case .fixedKey: "Key of the command line"
        case .reservedKeyName: "Reserved key name"
        case .environmentConflict: "Environment conflict"
        case .writeCancelled: "Write cancelled"
        case .insufficientStorage: "Insufficient storage"
        case .revisionCompacted: "Revision compacted"
        case .targetsNotSigned: "Targets not signed"
        case .rolloutRunning: "A rollout is running"
        case .rolloutNotRunning: "No rollout is running"
        case .rolloutUnchanged: "Nothing to roll out"
        case .rolloutChanged: "The rollout changed"
        case .scheduleEnded: "The scheduled change has ended"
        case .ownChange: "Own change request"
        case .alreadyApproved: "Already approved"
        case .changeClosed: "Change request closed"
        case .changeExpired: "Change request expired"
        case .tooManyChanges: "Too many change requests"
        case .bypassRefused: "Approval bypass refused"
        case .noBundle: "No bundle loaded yet"
        case .storeUnavailable: "Spec store unavailable"
        case .storeUnreachable: "Store unreachable"
        case .storeFailed: "Spec store failed"
        case .fileSystem: "File system error"
        }
    }
}
