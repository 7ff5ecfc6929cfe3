import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// nginx serving the bench's order as a static file on 127.0.0.1, when nginx is installed: a
/// fast server, whose own work is a small part of a request's round trip, so that the floor
/// measured against it says what the wire allows (DemoServer's work makes its floor slow).
///
/// Everything (configuration, the file, logs) lives in a temporary folder, removed by ``stop()``
/// with the server.
final class NginxServer {
    let port: UInt16
    private let process: Process
    private let folder: URL

    /// Why there is no nginx to measure against, when there is none; `nil` when there is.
    static var unavailable: String? { binary == nil ? "nginx is not installed (Debian: apt-get install nginx)" : nil }

    private static var binary: String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        return (path.split(separator: ":").map { "\($0)/nginx" } + ["/usr/sbin/nginx"]).first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Starts nginx serving `body` at `/orders/1` as `application/json`, keeping connections
    /// alive for as many requests as a run sends.
    init(body: Data) throws {
        guard let binary = Self.binary else { throw NginxFailure("nginx is not installed") }
        folder = FileManager.default.temporaryDirectory.appending(path: "baton-bench-nginx-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appending(path: "www/orders"), withIntermediateDirectories: true)
        try body.write(to: folder.appending(path: "www/orders/1"))
        port = try Self.freePort()
        // Started as root, nginx would run its worker as nobody and hand it the folder: a
        // benchmark's server on loopback may keep the user it was started as.
        let user = getuid() == 0 ? "user root;" : ""
        let configuration = """
        \(user)
        worker_processes 1;
        daemon off;
        pid \(folder.path)/nginx.pid;
        error_log \(folder.path)/error.log warn;
        events { worker_connections 256; }
        http {
            access_log off;
            client_body_temp_path \(folder.path)/body;
            proxy_temp_path \(folder.path)/proxy;
            fastcgi_temp_path \(folder.path)/fastcgi;
            uwsgi_temp_path \(folder.path)/uwsgi;
            scgi_temp_path \(folder.path)/scgi;
            default_type application/json;
            keepalive_requests 100000000;
            keepalive_timeout 120s;
            server {
                listen 127.0.0.1:\(port);
                root \(folder.path)/www;
            }
        }
        """
        try configuration.write(to: folder.appending(path: "nginx.conf"), atomically: true, encoding: .utf8)
        process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["-p", folder.path, "-c", folder.appending(path: "nginx.conf").path, "-e", folder.appending(path: "error.log").path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = ContinuousClock.now + .seconds(10)
        while !Self.accepts(port: port) {
            guard process.isRunning, ContinuousClock.now < deadline else {
                let log = (try? String(contentsOf: folder.appending(path: "error.log"), encoding: .utf8)) ?? ""
                stop()
                throw NginxFailure("nginx did not start listening on \(port): \(log.suffix(400))")
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
    }

    /// Stops nginx and removes its folder.
    func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: folder)
    }

    struct NginxFailure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    /// A port nobody listens on now, on 127.0.0.1.
    private static func freePort() throws -> UInt16 {
        let fd = Loopback.tcpSocket()
        defer { close(fd) }
        var address = Loopback.address(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { throw NginxFailure("no free port") }
        return UInt16(bigEndian: address.sin_port)
    }

    private static func accepts(port: UInt16) -> Bool {
        let fd = Loopback.tcpSocket()
        defer { close(fd) }
        return Loopback.connect(fd, port: port)
    }
}
