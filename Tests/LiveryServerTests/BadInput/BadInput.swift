import Foundation
import LiveryServer
import LiveryTesting
import Testing

/// One bad spec file of the battery: its name and bytes, and the exact error it must produce.
///
/// The folder it joins holds the good example (`card.yaml` including `palette.yaml`), so the
/// bad file is read together with good ones, as the provider, the daemon's push validation
/// and the daemon's watcher all read it.
struct BadInput: Sendable, CustomTestStringConvertible {
    /// What a push of the file gets.
    enum PushAnswer: Sendable {
        /// 422 listing ``BadInput/expected``.
        case invalid
        /// 413: the body is over the daemon's body limit.
        case tooLarge
    }

    var name: String
    /// The path relative to the specs folder.
    var path: String
    /// The file's bytes; made on demand, since some are large.
    var bytes: @Sendable () -> Data
    /// The error, exactly: file, line, column, code and message.
    var expected: Diagnostic
    var push: PushAnswer = .invalid
    /// Prepares the folder before the file arrives (a symbolic link, say).
    var setUp: (@Sendable (TemporarySpecFolder) throws -> Void)?

    var testDescription: String { name }

    init(
        _ name: String, _ path: String, _ text: String, _ location: (Int, Int), _ code: String, _ message: String,
        push: PushAnswer = .invalid, setUp: (@Sendable (TemporarySpecFolder) throws -> Void)? = nil
    ) {
        self.init(name, path, bytes: { Data(text.utf8) }, location, code, message, push: push, setUp: setUp)
    }

    init(
        _ name: String, _ path: String, bytes: @escaping @Sendable () -> Data, _ location: (Int, Int), _ code: String,
        _ message: String, push: PushAnswer = .invalid, setUp: (@Sendable (TemporarySpecFolder) throws -> Void)? = nil
    ) {
        self.name = name
        self.path = path
        self.bytes = bytes
        self.expected = Diagnostic(file: path, line: location.0, column: location.1, code: code, message: message)
        self.push = push
        self.setUp = setUp
    }

    init(
        _ name: String, _ path: String, raw: [UInt8], _ location: (Int, Int), _ code: String, _ message: String
    ) {
        self.init(name, path, bytes: { Data(raw) }, location, code, message)
    }

    /// A fresh folder with the good example and this case's preparations.
    func makeFolder() throws -> TemporarySpecFolder {
        let folder = try TemporarySpecFolder(prefix: "livery-battery")
        try TestDaemon.writeExample(to: folder)
        try setUp?(folder)
        return folder
    }
}
