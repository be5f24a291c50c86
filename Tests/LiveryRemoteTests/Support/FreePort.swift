#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Ports on the loopback interface for servers that cannot report the one they bound.
enum FreePort {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// A port that was free a moment ago: bind port 0, read what the kernel chose, close.
    static func pick() throws -> Int {
        try withSocket { fd, address in
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let named = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
            }
            guard named == 0 else { throw Failure(description: "getsockname: errno \(errno)") }
            return Int(UInt16(bigEndian: address.sin_port))
        }
    }

    /// A port nothing listens on (bound, never listened, then closed): connecting is refused.
    static func closed() throws -> Int { try pick() }

    private static func withSocket<T>(_ body: (Int32, inout sockaddr_in) throws -> T) throws -> T {
        #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw Failure(description: "socket: errno \(errno)") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0 else { throw Failure(description: "bind: errno \(errno)") }
        return try body(fd, &address)
    }
}

extension FreePort {
    /// Waits until something accepts connections on `port`.
    static func waitUntilListening(port: Int, timeout: Duration) async throws {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while clock.now < deadline {
            if accepts(port: port) { return }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw Failure(description: "nothing listens on port \(port) after \(timeout)")
    }

    private static func accepts(port: Int) -> Bool {
        #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        } == 0
    }
}
