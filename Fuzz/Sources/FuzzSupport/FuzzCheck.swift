import Foundation

/// Stops the fuzzer with `message` when `condition` is false: libFuzzer records the input as a
/// crash. Used for the properties a target checks beyond "does not crash".
public func fuzzCheck(
    _ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String,
    file: StaticString = #fileID, line: UInt = #line
) {
    guard !condition() else { return }
    let text = "fuzz property failed: \(message())\n"
    FileHandle.standardError.write(Data(text.utf8))
    fatalError(text, file: file, line: line)
}

/// Equality of two values by their full debug description, so that NaN equals NaN and -0.0
/// differs from 0.0: what "restores exactly" means for a snapshot.
public func sameState<T>(_ a: T, _ b: T) -> Bool {
    String(reflecting: a) == String(reflecting: b)
}
