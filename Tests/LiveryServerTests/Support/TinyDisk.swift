import Foundation

/// A 64 KiB tmpfs mounted over a folder, to fill the disk for real. Mounting needs root (or
/// CAP_SYS_ADMIN); ``isAvailable`` says whether this process may, and ``MountNamespace`` runs a
/// test where it may when it may not. A test that can do neither is skipped, saying why,
/// instead of passing without testing anything.
final class TinyDisk {
    let url: URL
    private var mounted = true

    /// Whether a tmpfs can be mounted here; checked once by mounting and unmounting one.
    /// `LIVERY_TEST_NO_MOUNT=1` pretends it cannot, to exercise the namespace fallback.
    static let isAvailable: Bool = {
        if ProcessInfo.processInfo.environment["LIVERY_TEST_NO_MOUNT"] != nil, !MountNamespace.isChild { return false }
        let probe = FileManager.default.temporaryDirectory.appending(path: "livery-tinydisk-\(UUID().uuidString)")
        guard (try? FileManager.default.createDirectory(at: probe, withIntermediateDirectories: true)) != nil else {
            return false  // no temporary folder at all: the test cannot run either
        }
        defer { rmdir(probe.path) }
        guard let disk = try? TinyDisk(over: probe) else { return false }  // the reason is the answer: not permitted
        disk.unmount()
        return true
    }()

    /// Mounts a tmpfs of `size` over `folder`, hiding what it held until ``unmount()``.
    init(over folder: URL, size: String = "64k") throws {
        url = folder
        guard mount("tmpfs", folder.path, "tmpfs", 0, "size=\(size),mode=0755") == 0 else {
            throw HTTPTestError("cannot mount a tmpfs on \(folder.path): \(String(cString: strerror(errno)))")
        }
    }

    deinit { unmount() }

    /// Unmounts (lazily, should a descriptor still be closing); idempotent.
    func unmount() {
        guard mounted else { return }
        mounted = false
        umount2(url.path, Int32(MNT_DETACH))
    }

    /// Fills the disk with a hidden file (which spec folders ignore) until a write fails with ENOSPC.
    func fill() throws {
        let path = url.appending(path: ".filler").path
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw HTTPTestError("cannot create \(path): errno \(errno)") }
        defer { close(fd) }
        let block = [UInt8](repeating: 0x2E, count: 1024)
        while true {
            let written = write(fd, block, block.count)
            if written < 0, errno == EINTR { continue }
            if written < 0, errno == ENOSPC { return }
            guard written > 0 else { throw HTTPTestError("filling \(path): errno \(errno)") }
        }
    }

    /// Frees the space ``fill()`` took.
    func empty() throws {
        guard unlink(url.appending(path: ".filler").path) == 0 else {
            throw HTTPTestError("cannot remove the filler: errno \(errno)")
        }
    }
}
