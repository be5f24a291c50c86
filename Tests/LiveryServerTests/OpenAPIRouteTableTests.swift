import Foundation
import Livery
import LiveryServer
import Testing

/// `openapi.yaml` and the daemon's route table name the same operations, both ways: a served
/// route the document lacks fails here, as a documented one the daemon does not serve does (the
/// schemathesis run, `Tests/OpenAPI/check_openapi.py`, then checks what each operation answers).
@Suite struct OpenAPIRouteTableTests {
    /// An operation as both sides can spell it: the method, and the path with each parameter
    /// (`{etag}`, a router's `**`) written `{}`.
    struct Operation: Hashable, CustomStringConvertible {
        let method: String
        let path: String

        init(method: String, path: String) {
            self.method = method.uppercased()
            self.path = path.replacing(/\{[A-Za-z]+\}|\*\*/, with: "{}")
        }

        var description: String { "\(method) \(path)" }
    }

    /// The operations of `openapi.yaml`, but those of paths marked `x-livery-pending`; a path
    /// that is a `$ref` to another (an environment's copy of a route) has the other's operations.
    static func documentedOperations() throws -> Set<Operation> {
        let document = try SpecNode.parse(
            Data(contentsOf: OpenAPIDocumentTests.repositoryDocument), format: .yaml, source: "openapi.yaml")
        let paths = try #require(document["paths"]?.members, "openapi.yaml has no paths mapping")
        let byPath = Dictionary(paths.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
        var operations = Set<Operation>()
        for path in paths where path.value["x-livery-pending"] == nil {
            var item = path.value
            if let reference = path.value["$ref"]?.string {
                let target = String(reference.dropFirst("#/paths/".count))
                    .replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
                item = try #require(byPath[target], "\(path.key) refers to \(reference), which is no path")
            }
            for method in ["get", "put", "post", "delete", "patch"] where item[method] != nil {
                operations.insert(Operation(method: method, path: path.key))
            }
        }
        return operations
    }

    /// The operations of the route table of a daemon that serves every optional route.
    static func servedOperations() throws -> Set<Operation> {
        Set(try HostileReadTokenTests.routeTable.map { Operation(method: $0.method, path: $0.path) })
    }

    @Test func everyServedRouteIsDocumented() throws {
        let undocumented = try Self.servedOperations().subtracting(Self.documentedOperations())
        #expect(undocumented.isEmpty, "served but not in openapi.yaml: \(undocumented.map(\.description).sorted())")
    }

    @Test func everyDocumentedOperationIsServed() throws {
        let unserved = try Self.documentedOperations().subtracting(Self.servedOperations())
        #expect(unserved.isEmpty, "in openapi.yaml but not served: \(unserved.map(\.description).sorted())")
    }
}
