import Foundation
import NIOCore
import NIOPosix
import Synchronization

/// A real TCP proxy on a loopback port in front of one upstream port, whose network a test can
/// break: cut it (every connection closed, new ones closed at once) or silence it (connections
/// stay open but no byte moves either way, like a partition that drops packets), then heal it.
final class TCPProxy: Sendable {
    /// What the proxy does with connections.
    enum Mode: Sendable {
        /// Passes bytes both ways.
        case forward
        /// Keeps every connection open and moves nothing: bytes wait in the sockets' buffers
        /// and flow again on ``forward``, as after a healed partition.
        case silent
        /// Closes every connection and each new one as soon as it is accepted.
        case cut
    }

    /// The port the proxy listens on.
    let port: Int
    private let switchboard: Switchboard
    private let server: any Channel

    /// The proxy's URL.
    var url: URL { URL(string: "http://127.0.0.1:\(port)")! }

    private init(port: Int, switchboard: Switchboard, server: any Channel) {
        self.port = port
        self.switchboard = switchboard
        self.server = server
    }

    /// Starts a proxy to `127.0.0.1:upstreamPort`, runs `body`, then stops it.
    static func with<T>(upstreamPort: Int, _ body: (TCPProxy) async throws -> T) async throws -> T {
        let switchboard = Switchboard(upstreamPort: upstreamPort)
        let server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.autoRead, value: false)
            .childChannelInitializer { inbound in switchboard.accept(inbound) }
            .bind(host: "127.0.0.1", port: 0).get()
        let proxy = TCPProxy(port: server.localAddress?.port ?? 0, switchboard: switchboard, server: server)
        let result: Result<T, any Error>
        do {
            result = .success(try await body(proxy))
        } catch {
            result = .failure(error)
        }
        try? await server.close()
        switchboard.set(.cut)
        return try result.get()
    }

    /// Switches the mode for every open connection and every later one.
    func set(_ mode: Mode) {
        switchboard.set(mode)
    }

    /// How many connections the proxy has accepted so far.
    var accepted: Int { switchboard.accepted }
}

/// The proxy's mode and its open connections (both ends of each).
private final class Switchboard: Sendable {
    private struct State {
        var mode = TCPProxy.Mode.forward
        var connections: [ObjectIdentifier: any Channel] = [:]
        var accepted = 0
    }

    private let state = Mutex(State())
    private let upstreamPort: Int

    init(upstreamPort: Int) {
        self.upstreamPort = upstreamPort
    }

    // The mode is applied under the lock, so that a connection registering meanwhile cannot end
    // up in the previous mode; closing happens outside it, since it calls back into `register`'s
    // close handler.
    func set(_ mode: TCPProxy.Mode) {
        let closing = state.withLock { state -> [any Channel] in
            state.mode = mode
            guard mode == .cut else {
                for channel in state.connections.values { Self.setReading(mode == .forward, channel) }
                return []
            }
            defer { state.connections = [:] }
            return Array(state.connections.values)
        }
        for channel in closing { channel.close(promise: nil) }
    }

    var accepted: Int { state.withLock { $0.accepted } }

    func accept(_ inbound: any Channel) -> EventLoopFuture<Void> {
        let mode = state.withLock { state in
            state.accepted += 1
            return state.mode
        }
        if mode == .cut { return inbound.close() }
        return ClientBootstrap(group: inbound.eventLoop)
            .channelOption(.autoRead, value: false)
            .connect(host: "127.0.0.1", port: upstreamPort)
            .flatMap { outbound in
                inbound.pipeline.addHandler(Forwarder(partner: outbound)).flatMap {
                    outbound.pipeline.addHandler(Forwarder(partner: inbound))
                }.map {
                    self.register(inbound)
                    self.register(outbound)
                }
            }
    }

    /// Adds one end of a new connection to the set the mode applies to, and applies the mode.
    private func register(_ channel: any Channel) {
        let key = ObjectIdentifier(channel)
        let kept = state.withLock { state in
            guard state.mode != .cut else { return false }
            state.connections[key] = channel
            Self.setReading(state.mode == .forward, channel)
            return true
        }
        guard kept else {
            channel.close(promise: nil)
            return
        }
        channel.closeFuture.whenComplete { _ in
            self.state.withLock { _ = $0.connections.removeValue(forKey: key) }
        }
    }

    private static func setReading(_ reading: Bool, _ channel: any Channel) {
        channel.setOption(.autoRead, value: reading).whenComplete { _ in }
    }
}

/// Writes what one side of a proxied connection reads to the other side, and closes the other
/// side when this one closes.
private final class Forwarder: ChannelInboundHandler, Sendable {
    typealias InboundIn = ByteBuffer

    private let partner: any Channel

    init(partner: any Channel) {
        self.partner = partner
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        partner.writeAndFlush(unwrapInboundIn(data), promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        partner.close(promise: nil)
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}
