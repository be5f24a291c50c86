import Foundation
import Livery
import LiveryTestSupport
import LiveryTesting
import Testing

/// `livery schema` checked by a real JSON Schema validator (Python's `jsonschema`, which
/// `scripts/test` installs when missing) against the example specs and against bad files.
@Suite(.timeLimit(.minutes(1))) struct SchemaCommandTests {
    static let root = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test func theCommittedSchemaIsTheGeneratedOne() async throws {
        let committed = try String(
            contentsOf: Self.root.appendingPathComponent("schema/livery-spec.schema.json"), encoding: .utf8)
        let (status, output) = try await LiveryProcess.run(["schema"])
        #expect(status == 0)
        #expect(output == committed, "regenerate it: livery schema > schema/livery-spec.schema.json")
        #expect(output == TraitRegistry.standard.jsonSchema())
    }

    /// Validates each document and returns, for each, the number of schema errors.
    private func validate(_ documents: [String]) async throws -> [Int] {
        let folder = try TemporarySpecFolder()
        let (_, schema) = try await LiveryProcess.run(["schema"])
        try folder.write("schema.json", schema)
        for (index, document) in documents.enumerated() { try folder.write("doc\(index).yaml", document) }
        let script = """
            import json, sys, yaml, jsonschema
            schema = json.load(open(sys.argv[1]))
            jsonschema.Draft202012Validator.check_schema(schema)
            validator = jsonschema.Draft202012Validator(schema)
            for path in sys.argv[2:]:
                print(len(list(validator.iter_errors(yaml.safe_load(open(path))))))
            """
        let python = try await ChildProcess.run(
            "python3",
            ["-c", script, folder.url("schema.json").path] + documents.indices.map { folder.url("doc\($0).yaml").path })
        let text = python.output
        try #require(
            python.terminationStatus == 0, "python3 with jsonschema and yaml is needed: \(text) \(python.errors)")
        return text.split(separator: "\n").compactMap { Int($0) }
    }

    @Test func everyExampleSpecPasses() async throws {
        let specs = Self.root.appendingPathComponent("Specs")
        let files = try FileManager.default.contentsOfDirectory(atPath: specs.path).filter { $0.hasSuffix(".yaml") }
            .sorted()
        try #require(!files.isEmpty)
        let documents = try files.map { try String(contentsOf: specs.appendingPathComponent($0), encoding: .utf8) }
        #expect(try await validate(documents) == Array(repeating: 0, count: files.count))
    }

    @Test func goodAndBadDocuments() async throws {
        let documents = [
            "specs: { a: [{ type: CornerRadius, radius: 4 }, { type: Set, values: { retries: 2 } }] }",
            "specs: { a: [{ type: DropShadow, offset: [0, 2], color: '~alpha(@c, 0.5)' }] }",
            "specs: { a: [{ type: Padding, insets: 8 }, { type: Font, weight: 600 }] }",
            "specs: { a: [{ type: CornerRadius, radiuss: 4 }] }",  // unknown key
            "specs: { a: [{ type: CornerRadios, radius: 4 }] }",  // unknown trait type
            "specs: { a: [{ type: BackgroundColor, color: 'red' }] }",  // not a colour
            "specs: { a: [{ type: CornerRadius }] }",  // missing required field
            "spec: { a: [] }",  // unknown top-level key
            "specs: { a: [{ type: Font, weight: bolder }] }",  // unknown weight
        ]
        let errors = try await validate(documents)
        #expect(errors.count == documents.count)
        #expect(errors.prefix(3).allSatisfy { $0 == 0 })
        #expect(errors.dropFirst(3).allSatisfy { $0 > 0 })
    }
}
