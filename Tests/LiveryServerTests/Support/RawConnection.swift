import Foundation

/// A plain TCP connection to the daemon, for requests no HTTP client would send: half a request
/// head, a 100 KB header, a stalled client.
///
/// The socket is non-blocking and every wait is a `Task.sleep`: a test blocking in `poll` or
/// `send` would hold one of the few cooperative threads the in-process daemon also runs on.
final class RawConnection {
    private let fd: Int32

    /// Connects to `127.0.0.1:port`, from `source` (another loopback address, so that the
    /// daemon sees another peer) when given.
    init(port: Int, from source: String? = nil) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw HTTPTestError("socket: errno \(errno)") }
        if let source {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            local.sin_addr.s_addr = inet_addr(source)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard bound == 0 else {
                close(fd)
                throw HTTPTestError("bind to \(source): errno \(errno)")
            }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        // Connecting on loopback completes at once; only then does the socket become non-blocking.
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0, fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) == 0 else {
            close(fd)
            throw HTTPTestError("connect to port \(port): errno \(errno)")
        }
    }

    deinit { close(fd) }

    /// Sends every byte; throws if the peer has closed the connection or takes none for 5 s.
    func send(_ text: String) async throws {
        try await send(Data(text.utf8))
    }

    func send(_ data: Data) async throws {
        var offset = 0
        let deadline = ContinuousClock.now + .seconds(5)
        while offset < data.count {
            let sent = data.withUnsafeBytes { buffer in
                Glibc.send(fd, buffer.baseAddress! + offset, buffer.count - offset, Int32(MSG_NOSIGNAL))
            }
            if sent >= 0 {
                offset += sent
            } else if errno == EAGAIN || errno == EINTR {
                guard ContinuousClock.now < deadline else { throw HTTPTestError("send: the peer takes nothing") }
                try await Task.sleep(for: .milliseconds(5))
            } else {
                throw HTTPTestError("send: errno \(errno)")
            }
        }
    }

    /// Sends what the peer takes of `data` now, without waiting; returns how many bytes that
    /// was (0 once the peer has closed the connection).
    func sendAvailable(_ data: Data) throws -> Int {
        var offset = 0
        while offset < data.count {
            let sent = data.withUnsafeBytes { buffer in
                Glibc.send(fd, buffer.baseAddress! + offset, buffer.count - offset, Int32(MSG_NOSIGNAL))
            }
            if sent > 0 {
                offset += sent
            } else if sent < 0, errno == EINTR {
                continue
            } else if sent < 0, errno == EAGAIN {
                break
            } else if sent < 0, errno == EPIPE || errno == ECONNRESET {
                break
            } else {
                throw HTTPTestError("send: errno \(errno)")
            }
        }
        return offset
    }

    /// What the peer sent until it closed the connection (`closed` true), or until `timeout`
    /// passed with the connection still open (`closed` false).
    func receiveUntilClosed(timeout: Duration) async throws -> (text: String, closed: Bool) {
        let (data, closed) = try await receiveDataUntilClosed(timeout: timeout)
        return (String(decoding: data, as: UTF8.self), closed)
    }

    /// The same as bytes.
    func receiveDataUntilClosed(timeout: Duration) async throws -> (data: Data, closed: Bool) {
        var received = Data()
        let deadline = ContinuousClock.now + timeout
        while true {
            switch receiveAvailable(into: &received) {
            case .closed: return (received, true)
            case .open:
                guard ContinuousClock.now < deadline else { return (received, false) }
                try await Task.sleep(for: .milliseconds(5))
            }
        }
    }

    /// What the peer sent until `marker` arrived, the connection closed, or `timeout` passed.
    func receive(until marker: String, timeout: Duration) async throws -> String {
        var received = Data()
        let deadline = ContinuousClock.now + timeout
        while received.range(of: Data(marker.utf8)) == nil, ContinuousClock.now < deadline {
            if case .closed = receiveAvailable(into: &received) { break }
            try await Task.sleep(for: .milliseconds(5))
        }
        return String(decoding: received, as: UTF8.self)
    }

    /// Whether the peer has not closed the connection, without consuming anything it sent.
    var isOpen: Bool {
        var byte: UInt8 = 0
        let count = recv(fd, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
        return count > 0 || (count < 0 && (errno == EAGAIN || errno == EINTR))
    }

    private enum State { case open, closed }

    /// Reads whatever has arrived, without waiting.
    private func receiveAvailable(into received: inout Data) -> State {
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = recv(fd, &buffer, buffer.count, 0)
            if count > 0 {
                received.append(contentsOf: buffer[0..<count])
            } else if count == 0 {
                return .closed
            } else if errno == EINTR {
                continue
            } else if errno == EAGAIN {
                return .open
            } else {
                return .closed  // reset by the peer
            }
        }
    }
}
