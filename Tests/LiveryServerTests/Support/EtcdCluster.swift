import AsyncHTTPClient
import Foundation
import LiveryEtcd
import LiveryServer
import LiveryTestSupport
import Logging
import NIOHTTP1
import Synchronization

/// Real etcd members (Debian's `/usr/bin/etcd`) on loopback ports with temporary data folders,
/// for the length of a test: one member for most tests, three for failover.
final class EtcdCluster: Sendable {
    struct Member: Sendable {
        let name: String
        let clientPort: Int
        let peerPort: Int
        let dataDirectory: URL
        var clientURL: String { "http://127.0.0.1:\(clientPort)" }
        var peerURL: String { "http://127.0.0.1:\(peerPort)" }
    }

    static let binary = "/usr/bin/etcd"
    let members: [Member]
    /// The client the tests' daemons and helpers reach etcd with.
    let http: HTTPClient
    /// The running members' processes.
    private let processes: Mutex<[ChildProcess?]>
    private let token: String
    private let options: [String]

    var endpoints: [URL] { members.compactMap { URL(string: $0.clientURL) } }

    private init(members: [Member], token: String, options: [String]) {
        self.members = members
        self.token = token
        self.options = options
        self.http = EtcdClient.makeHTTPClient()
        self.processes = Mutex(Array(repeating: nil, count: members.count))
    }

    /// Starts `size` members, each with `options` added to its command line, runs `body`, then
    /// kills them and removes their data.
    static func with<T>(
        members size: Int = 1, options: [String] = [], _ body: (EtcdCluster) async throws -> T
    ) async throws -> T {
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            throw HTTPTestError("\(binary) is missing: install Debian's etcd-server (scripts/test does)")
        }
        // A port `freePort()` found free may be taken by another test before etcd binds it (the
        // tests run in parallel): such a cluster is started again on other ports.
        var attempt = 1
        while true {
            let cluster = try makeCluster(size: size, options: options)
            do {
                for index in cluster.members.indices { try await cluster.start(index) }
                try await cluster.waitUntilHealthy()
            } catch {
                let lostPort = cluster.errors.contains("address already in use")
                await cluster.tearDown()
                if lostPort, attempt < 3 {
                    attempt += 1
                    continue
                }
                throw error
            }
            let result: Result<T, any Error>
            do {
                result = .success(try await body(cluster))
            } catch {
                result = .failure(error)
            }
            await cluster.tearDown()
            return try result.get()
        }
    }

    private static func makeCluster(size: Int, options: [String]) throws -> EtcdCluster {
        var members: [Member] = []
        for index in 0..<size {
            let data = FileManager.default.temporaryDirectory.appending(path: "livery-etcd-\(UUID().uuidString)")
            members.append(
                Member(name: "m\(index)", clientPort: try freePort(), peerPort: try freePort(), dataDirectory: data))
        }
        return EtcdCluster(members: members, token: "livery-\(UUID().uuidString.prefix(8))", options: options)
    }

    /// Kills every member, closes the client and removes the data folders.
    private func tearDown() async {
        for index in members.indices { await kill(index) }
        try? await http.shutdown()
        for member in members { try? FileManager.default.removeItem(at: member.dataDirectory) }
    }

    /// What the members wrote to standard error (etcd logs there), each line prefixed by the member's name.
    var errors: String {
        let children = processes.withLock { $0 }
        return zip(members, children).compactMap { member, child in
            child.map { "\(member.name): \($0.errors.suffix(2_000))" }
        }.joined(separator: "\n")
    }

    /// Starts member `index` (again, on its existing data folder after a stop).
    func start(_ index: Int) async throws {
        let member = members[index]
        var arguments = [
            "--name", member.name, "--data-dir", member.dataDirectory.path,
            "--listen-client-urls", member.clientURL, "--advertise-client-urls", member.clientURL,
            "--listen-peer-urls", member.peerURL, "--initial-advertise-peer-urls", member.peerURL,
            "--heartbeat-interval", "50", "--election-timeout", "500", "--log-level", "error",
        ]
        if members.count > 1 {
            arguments += [
                "--initial-cluster", members.map { "\($0.name)=\($0.peerURL)" }.joined(separator: ","),
                "--initial-cluster-state", "new", "--initial-cluster-token", token,
            ]
        }
        let process = ChildProcess(Self.binary, arguments + options)
        try await process.start()
        processes.withLock { $0[index] = process }
    }

    /// `kill -9` of member `index`; returns once it has ended.
    func kill(_ index: Int) async {
        await end(index, with: SIGKILL)
    }

    /// Stops member `index` gracefully (SIGTERM) and waits for it to exit.
    func stop(_ index: Int) async {
        await end(index, with: SIGTERM)
    }

    private func end(_ index: Int, with signal: Int32) async {
        guard let process = processes.withLock({ $0[index] }) else { return }
        process.send(signal)
        await process.waitUntilExit()
        processes.withLock { $0[index] = nil }
    }

    /// Polls every running member's `/health` until all say true (10 s at most).
    func waitUntilHealthy() async throws {
        let healthy = try await TestDaemon.eventually(timeout: .seconds(10)) {
            for index in members.indices where processes.withLock({ $0[index] }) != nil {
                let reply = try? await HTTP(base: members[index].clientURL, token: "").get(
                    "/health", timeout: .seconds(1))
                guard reply?.text.contains(#""health":"true""#) == true else { return false }
            }
            return true
        }
        guard healthy else {
            throw HTTPTestError("etcd did not become healthy within 10 s; what its members logged:\n\(errors)")
        }
    }

    /// The index of the member that leads, asked of each running member.
    func leader() async throws -> Int? {
        for (index, member) in members.enumerated() where processes.withLock({ $0[index] }) != nil {
            guard
                let reply = try? await HTTP(base: member.clientURL, token: "").send(
                    .POST, "/v3/maintenance/status", body: Data("{}".utf8)),
                let object = try? reply.json(),
                let header = object["header"] as? [String: Any], let id = header["member_id"] as? String,
                let leader = object["leader"] as? String
            else { continue }
            if id == leader { return index }
        }
        return nil
    }

    /// Makes member `index` the leader (`etcdctl move-leader`), unless it leads already.
    func makeLeader(_ index: Int) async throws {
        guard try await leader() != index else { return }
        let reply = try await HTTP(base: members[index].clientURL, token: "").send(
            .POST, "/v3/maintenance/status", body: Data("{}".utf8))
        guard let header = try reply.json()["header"] as? [String: Any],
            let id = (header["member_id"] as? String).flatMap({ UInt64($0) })
        else { throw HTTPTestError("member \(index) did not say its id: \(reply.text)") }
        try await etcdctl(["move-leader", String(id, radix: 16)])
        guard try await TestDaemon.eventually(timeout: .seconds(5), { try await leader() == index }) else {
            throw HTTPTestError("member \(index) did not become the leader")
        }
    }

    /// A client for the tests' own reads and writes.
    func client() -> EtcdClient {
        EtcdClient(
            endpoints: endpoints, http: http, logger: Logger(label: "etcd.test") { _ in SwiftLogNoOpLogHandler() })
    }

    /// Runs Debian's `etcdctl` (API v3) against the cluster; returns its standard output.
    @discardableResult
    func etcdctl(_ arguments: [String]) async throws -> String {
        let etcdctl = try await ChildProcess.run(
            "/usr/bin/etcdctl", ["--endpoints", members.map(\.clientURL).joined(separator: ",")] + arguments,
            environment: ["ETCDCTL_API": "3"], streams: .merged)
        guard etcdctl.terminationStatus == 0 else {
            throw HTTPTestError("etcdctl \(arguments) failed: \(etcdctl.output)")
        }
        return etcdctl.output
    }

    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw HTTPTestError("socket() failed") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        guard bound else { throw HTTPTestError("bind() failed") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
