import Foundation
import Subprocess
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

#if canImport(System)
import System
#else
import SystemPackage
#endif

/// A team's `livery`, copied alone into an empty folder, serves Livery Studio: the page and
/// every file it references (its stylesheet, its script modules and what they import), each
/// with 200 and its content type. Nothing beside the executable: the page is compiled in.
@Suite(.timeLimit(.minutes(2))) struct StudioFromTheExecutableTests {
    @Test func theExecutableAloneServesTheStudioAndEveryFileItReferences() async throws {
        let work = FileManager.default.temporaryDirectory.appending(path: "custom-livery-studio-\(UUID().uuidString)")
        let specs = work.appending(path: "Specs")
        let alone = work.appending(path: "bin")
        try FileManager.default.createDirectory(at: specs, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: alone, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        try "specs: { lamp: [] }\n".write(to: specs.appending(path: "lamp.yaml"), atomically: true, encoding: .utf8)
        let copy = alone.appending(path: "custom-livery")
        try FileManager.default.copyItem(at: ExampleProcess.built, to: copy)
        #expect(try FileManager.default.contentsOfDirectory(atPath: alone.path) == ["custom-livery"])

        let serve = ["serve", specs.path, "--port", "0"]
        try await ExampleProcess.whileRunning(
            serve, executable: .path(FilePath(copy.path)), firstLine: { $0.contains("serving") }
        ) { serving in
            let base = try #require(serving.split(separator: " ").last.flatMap { URL(string: String($0)) })
            var pending = ["/studio/"]
            var fetched: Set<String> = []
            while let path = pending.popLast() {
                guard fetched.insert(path).inserted else { continue }
                let url = try #require(URL(string: path, relativeTo: base))
                let (body, response) = try await URLSession.shared.data(from: url)
                let reply = try #require(response as? HTTPURLResponse)
                #expect(reply.statusCode == 200, "\(path)")
                #expect(reply.value(forHTTPHeaderField: "Content-Type") == Self.contentType(of: path), "\(path)")
                for reference in Self.references(in: String(decoding: body, as: UTF8.self)) {
                    pending.append(try #require(URL(string: reference, relativeTo: url)).path)
                }
            }
            #expect(
                fetched.isSuperset(of: ["/studio/", "/studio/studio.css", "/studio/js/app.js", "/v1/livery.js"]),
                "\(fetched.sorted())")
            #expect(fetched.count > 10, "\(fetched.sorted())")
        }
    }

    /// What a file of the page loads: the HTML's `src` and `href` (but `data:` URLs) and the
    /// modules' `import … from "…"`.
    static func references(in text: String) -> [String] {
        let attributes = text.matches(of: /(?:src|href)="([^"]+)"/).map { String($0.1) }
        let imports = text.matches(of: /\bfrom\s+"([^"]+)"/).map { String($0.1) }
        return (attributes + imports).filter { !$0.hasPrefix("data:") }
    }

    static func contentType(of path: String) -> String {
        if path.hasSuffix(".css") { return "text/css; charset=utf-8" }
        if path.hasSuffix(".js") { return "text/javascript; charset=utf-8" }
        return "text/html; charset=utf-8"
    }
}
