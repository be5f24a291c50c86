import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Many plain HTTP/1.1 clients on loopback, one socket each, that send one request and then
/// only wait: the cheapest possible clients, so that what they cost is the server's.
final class RawClients {
    private var sockets: [Int32] = []

    /// Opens `count` connections to 127.0.0.1:`port` and sends `request` on each, pausing
    /// every 100 connections so the server's accept queue never overflows.
    init(count: Int, port: Int, request: String) throws {
        let bytes = Array(request.utf8)
        do {
            for index in 0..<count {
                let fd = try Self.connect(port: port)
                sockets.append(fd)
                try Self.send(bytes, on: fd)
                guard fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) == 0 else {
                    throw BenchError("fcntl: errno \(errno)")
                }
                if index % 100 == 99 { Thread.sleep(forTimeInterval: 0.005) }
            }
        } catch {
            closeAll()
            throw error
        }
    }

    deinit { closeAll() }

    var count: Int { sockets.count }

    /// How many sockets have something to read (an answer, or the server closed them) now.
    func readableNow() -> Int {
        var fds = sockets.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        let ready = poll(&fds, nfds_t(fds.count), 0)
        return max(0, Int(ready))
    }

    /// Reads until every socket has sent a status line or `timeout` passes; returns how many
    /// answered with each status code (0: closed without one).
    func statusCodes(timeout: Duration) -> [Int: Int] {
        var heads = [[UInt8]](repeating: [], count: sockets.count)
        var codes: [Int: Int] = [:]
        var open = Set(sockets.indices)
        var buffer = [UInt8](repeating: 0, count: 4096)
        let deadline = ContinuousClock.now + timeout
        while !open.isEmpty, ContinuousClock.now < deadline {
            let watched = Array(open)
            var fds = watched.map { pollfd(fd: sockets[$0], events: Int16(POLLIN), revents: 0) }
            guard poll(&fds, nfds_t(fds.count), 100) > 0 else { continue }
            for (slot, index) in watched.enumerated() where fds[slot].revents != 0 {
                let read = recv(sockets[index], &buffer, buffer.count, 0)
                if read <= 0 {
                    if read < 0, errno == EAGAIN || errno == EINTR { continue }
                    codes[0, default: 0] += 1
                    open.remove(index)
                    continue
                }
                heads[index] += buffer[0..<read].prefix(16 - min(16, heads[index].count))
                // "HTTP/1.1 200 …": the code is bytes 9…11.
                if heads[index].count >= 12, let code = Int(String(decoding: heads[index][9..<12], as: UTF8.self)) {
                    codes[code, default: 0] += 1
                    open.remove(index)
                }
            }
        }
        return codes
    }

    func closeAll() {
        for fd in sockets { close(fd) }
        sockets = []
    }

    private static func connect(port: Int) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw BenchError("socket: errno \(errno) (is RLIMIT_NOFILE high enough?)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        var result: Int32
        repeat {
            result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        } while result != 0 && errno == EINTR
        guard result == 0 else {
            let error = errno
            close(fd)
            throw BenchError("connect to port \(port): errno \(error)")
        }
        return fd
    }

    private static func send(_ bytes: [UInt8], on fd: Int32) throws {
        var sent = 0
        while sent < bytes.count {
            let written = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, 0) }
            if written < 0 {
                if errno == EINTR { continue }
                throw BenchError("send: errno \(errno)")
            }
            sent += written
        }
    }

    /// Raises this process's open-file limit (children inherit it) to at least `needed`.
    static func raiseFileLimit(to needed: Int) throws {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else {
            throw BenchError("getrlimit: errno \(errno)")
        }
        guard limit.rlim_cur < rlim_t(needed) else { return }
        guard limit.rlim_max >= rlim_t(needed) else {
            throw BenchError("RLIMIT_NOFILE hard limit \(limit.rlim_max) is below the \(needed) sockets needed")
        }
        limit.rlim_cur = rlim_t(needed)
        guard setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else {
            throw BenchError("setrlimit: errno \(errno)")
        }
    }
}
