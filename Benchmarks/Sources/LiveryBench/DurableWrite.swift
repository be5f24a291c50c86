import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The floor under any durable push: writing a file the way the daemon does (a temporary file,
/// `fsync`, `rename` over the target, `fsync` of the folder), with nothing else around it.
enum DurableWrite {
    /// Times `count` such writes of `data` into `folder` (which nothing watches); nanoseconds each.
    static func time(_ data: Data, into folder: URL, count: Int) throws -> Samples {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let target = folder.appendingPathComponent("card.yaml").path
        let temporary = folder.appendingPathComponent(".card.yaml.tmp").path
        var samples: [Double] = []
        for _ in 0..<count {
            let start = ContinuousClock.now
            let fd = open(temporary, O_CREAT | O_WRONLY | O_TRUNC, 0o644)
            guard fd >= 0 else { throw BenchError("open \(temporary): errno \(errno)") }
            let written = data.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            let synced = fsync(fd)
            close(fd)
            guard written == data.count, synced == 0, rename(temporary, target) == 0 else {
                throw BenchError("durable write in \(folder.path) failed: errno \(errno)")
            }
            let directory = open(folder.path, O_RDONLY | O_DIRECTORY)
            guard directory >= 0, fsync(directory) == 0 else {
                throw BenchError("fsync \(folder.path): errno \(errno)")
            }
            close(directory)
            samples.append((ContinuousClock.now - start).nanoseconds)
        }
        return Samples(nanoseconds: samples)
    }
}
