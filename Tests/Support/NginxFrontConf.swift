public import Foundation

/// The shipped nginx front, `deploy/nginx/livery.conf`, made into a whole `nginx.conf` for a run
/// on loopback: changed only where it names places (the daemons' addresses, the listen port and
/// the cache folder), wrapped in an `http` block whose temporary folders are under `root`.
/// The fleet tests and the fleet benchmark run the very same front this way.
public enum NginxFrontConf {
    /// What went wrong reading or adapting the shipped conf.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// nchan, which the shipped conf needs, as Debian's `libnginx-mod-nchan` installs it.
    public static let nchanModule = "/usr/lib/nginx/modules/ngx_nchan_module.so"

    /// The repository's `deploy/nginx/livery.conf`.
    public static var shipped: URL {
        URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appending(path: "deploy/nginx/livery.conf")
    }

    /// A whole `nginx.conf` that loads ``nchanModule``: one worker with room for `connections` connections (clients and
    /// upstream ones together), pid, logs and temporary files under `root`, and the shipped
    /// site listening on 127.0.0.1:`port` in front of the daemons on `daemonPorts`, caching in
    /// `root/cache`.
    public static func config(root: String, port: Int, daemonPorts: [Int], connections: Int) throws -> String {
        let site = try adapt(
            String(contentsOf: shipped, encoding: .utf8), port: port, daemonPorts: daemonPorts, cache: "\(root)/cache")
        guard FileManager.default.fileExists(atPath: nchanModule) else {
            throw Failure(
                description:
                    "\(nchanModule): expected nginx's nchan module (run scripts/test, which installs libnginx-mod-nchan)"
            )
        }
        return """
            load_module \(nchanModule);
            worker_processes 1;
            worker_rlimit_nofile \(connections + 64);
            pid \(root)/nginx.pid;
            error_log \(root)/error.log;
            events { worker_connections \(connections); }
            http {
                access_log off;
                client_body_temp_path \(root)/tmp/body;
                proxy_temp_path \(root)/tmp/proxy;
                fastcgi_temp_path \(root)/tmp/fastcgi;
                uwsgi_temp_path \(root)/tmp/uwsgi;
                scgi_temp_path \(root)/tmp/scgi;
            \(site)
            }
            """
    }

    /// The shipped site with this machine's places: its upstream servers replaced by
    /// `daemonPorts` (keeping their options), its listen port and its cache folder.
    public static func adapt(_ shipped: String, port: Int, daemonPorts: [Int], cache: String) throws -> String {
        var lines: [String] = []
        var replacedUpstream = false
        for line in shipped.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("server 127.0.0.1:") {
                guard !replacedUpstream else { continue }
                replacedUpstream = true
                let options = trimmed.split(separator: " ").dropFirst(2).joined(separator: " ")
                lines += daemonPorts.map { "    server 127.0.0.1:\($0) \(options)" }
            } else if trimmed.hasPrefix("listen ") {
                lines.append("    listen 127.0.0.1:\(port);")
            } else {
                lines.append(String(line).replacingOccurrences(of: "/var/cache/nginx/livery", with: cache))
            }
        }
        guard replacedUpstream else {
            throw Failure(description: "\(Self.shipped.path): expected an upstream of 127.0.0.1 servers")
        }
        return lines.joined(separator: "\n")
    }
}
