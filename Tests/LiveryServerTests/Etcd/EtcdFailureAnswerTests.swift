import AsyncHTTPClient
import Foundation
import LiveryEtcd
import LiveryServer
import Logging
import Testing

/// How the etcd client reads the failure answers of etcd's JSON gateway. A stand-in server on
/// loopback gives them, because a real member answers some only at moments a test cannot pick:
/// 408 "the client connection is closing" comes from a member in the middle of shutting down.
@Suite(.timeLimit(.minutes(1))) struct EtcdFailureAnswerTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let status: Int
        let grpcCode: Int
        let message: String
        let expected: EtcdError.Code
        var testDescription: String { "\(status) code \(grpcCode) → \(expected)" }
    }

    static let cases = [
        Case(status: 408, grpcCode: 1, message: "grpc: the client connection is closing", expected: .unavailable),
        Case(status: 503, grpcCode: 14, message: "etcdserver: no leader", expected: .unavailable),
        Case(status: 504, grpcCode: 4, message: "context deadline exceeded", expected: .unavailable),
        Case(status: 400, grpcCode: 3, message: "etcdserver: key is not provided", expected: .protocolError),
    ]

    @Test(arguments: cases) func readsAndWritesTellTryLaterFromRefused(_ answer: Case) async throws {
        try await IncludeServer.with { server in
            let body = #"{"error":"\#(answer.message)","code":\#(answer.grpcCode),"message":"\#(answer.message)"}"#
            for path in ["/v3/kv/range", "/v3/kv/txn"] {
                server.serve(
                    path,
                    IncludeServer.Answer(
                        status: answer.status, body: body, headers: ["Content-Type": "application/json"]))
            }
            let client = EtcdClient(
                endpoints: [try #require(URL(string: server.base))], http: HTTPClient.shared,
                logger: Logger(label: "etcd.test") { _ in SwiftLogNoOpLogHandler() })
            do throws(EtcdError) {
                _ = try await client.range(key: "/livery/specs/", rangeEnd: EtcdClient.prefixEnd("/livery/specs/"))
                Issue.record("the range succeeded")
            } catch {
                #expect(error.code == answer.expected, "\(error)")
            }
            do throws(EtcdError) {
                _ = try await client.transaction(if: [], then: [])
                Issue.record("the transaction succeeded")
            } catch {
                #expect(error.code == answer.expected, "\(error)")
            }
        }
    }
}
