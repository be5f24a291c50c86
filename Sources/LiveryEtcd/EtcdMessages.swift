import Foundation

// The JSON shapes of etcd's gRPC gateway (`/v3/...`) that the client uses. The gateway writes
// bytes as base64 and 64-bit integers as strings, and leaves out every field at its protobuf
// default (0, false, empty): hence the optionals.

/// A key and its value as the gateway writes them.
struct EtcdWireKeyValue: Codable, Sendable {
    var key: String?
    var value: String?
    var create_revision: String?
    var mod_revision: String?
}

/// The header of every answer.
struct EtcdWireHeader: Codable, Sendable {
    var revision: String?
}

/// `POST /v3/kv/range`.
struct EtcdWireRangeRequest: Encodable, Sendable {
    var key: String
    var range_end: String?
    var revision: String?
    var keys_only: Bool?
}

/// The answer to a range.
struct EtcdWireRangeResponse: Decodable, Sendable {
    var header: EtcdWireHeader?
    var kvs: [EtcdWireKeyValue]?
}

/// One comparison of a transaction.
struct EtcdWireCompare: Encodable, Sendable {
    var key: String
    var range_end: String?
    var target: String
    var result: String
    var mod_revision: String?
    var create_revision: String?
}

/// One operation of a transaction.
struct EtcdWireOperation: Encodable, Sendable {
    struct Put: Encodable, Sendable {
        var key: String
        var value: String
    }
    struct Delete: Encodable, Sendable {
        var key: String
        var range_end: String?
    }
    var request_put: Put?
    var request_delete_range: Delete?
}

/// `POST /v3/kv/txn`.
struct EtcdWireTxnRequest: Encodable, Sendable {
    var compare: [EtcdWireCompare]
    var success: [EtcdWireOperation]
}

/// The answer to a transaction.
struct EtcdWireTxnResponse: Decodable, Sendable {
    var header: EtcdWireHeader?
    var succeeded: Bool?
}

/// `POST /v3/watch`: one create request.
struct EtcdWireWatchRequest: Encodable, Sendable {
    struct Create: Encodable, Sendable {
        var key: String
        var range_end: String
        var start_revision: String
        var progress_notify: Bool
    }
    var create_request: Create
}

/// One line of a watch's answer.
struct EtcdWireWatchLine: Decodable, Sendable {
    struct Result: Decodable, Sendable {
        var header: EtcdWireHeader?
        var created: Bool?
        var canceled: Bool?
        var compact_revision: String?
        var cancel_reason: String?
        var events: [Event]?
    }
    struct Event: Decodable, Sendable {
        var type: String?
        var kv: EtcdWireKeyValue?
    }
    struct Failure: Decodable, Sendable {
        var message: String?
    }
    var result: Result?
    var error: Failure?
}

/// The body of a gateway error.
struct EtcdWireError: Decodable, Sendable {
    var error: String?
    var message: String?
    var code: Int?
}

/// `POST /v3/maintenance/status`.
struct EtcdWireStatusResponse: Decodable, Sendable {
    var header: EtcdWireHeader?
    var version: String?
    var leader: String?
}

extension String {
    /// The base64 of the string's UTF-8, as the gateway wants keys.
    var etcdBase64: String { Data(utf8).base64EncodedString() }
}

/// `POST /v3/auth/authenticate`.
struct EtcdWireAuthenticateRequest: Encodable, Sendable {
    var name: String
    var password: String
}

/// The answer to an authenticate: the token later requests carry in `Authorization`.
struct EtcdWireAuthenticateResponse: Decodable, Sendable {
    var token: String?
}
