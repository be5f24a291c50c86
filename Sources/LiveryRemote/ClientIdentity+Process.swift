import Foundation

#if canImport(Glibc)
import Glibc
#endif

extension ClientIdentity {
    /// This process: its name, `host:pid` as the instance, and `appVersion`.
    ///
    /// The host is `gethostname`'s answer, with no name lookup, so it costs nothing to make.
    public static func currentProcess(appVersion: String = "") -> ClientIdentity {
        var buffer = [CChar](repeating: 0, count: 256)
        let named = gethostname(&buffer, buffer.count - 1) == 0
        let host =
            named ? String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : "unknown"
        let process = ProcessInfo.processInfo
        return ClientIdentity(
            fitting: process.processName, instance: "\(host):\(process.processIdentifier)", appVersion: appVersion)
    }
}
