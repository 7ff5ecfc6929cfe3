import BatonLocking
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The transport of a client made without one: on Linux, ``HTTP1Transport`` for `http` requests
/// and ``URLSessionTransport`` for the rest (`https`, until Baton's own transport speaks TLS); on
/// Apple platforms, ``URLSessionTransport`` for all.
///
/// `http` goes to URLSession on Linux too when the environment names a proxy for it
/// (`http_proxy` or `HTTP_PROXY`, which libcurl honours), except to the hosts `no_proxy` (or
/// `NO_PROXY`) names: Baton's own transport does not speak through a proxy.
final class DefaultTransport: Transport {
    private let plain: (any Transport)?
    /// Whether a proxy is set for `http`: then only the hosts in `unproxied` go to `plain`.
    private let proxied: Bool
    /// The `no_proxy` entries, lower-cased, without a leading dot; `*` for every host.
    private let unproxied: [String]
    /// Made on the first request that needs it: a client that only speaks `http` never opens a
    /// URLSession.
    private let session = Lock<URLSessionTransport?>(nil)

    init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        proxied = ["http_proxy", "HTTP_PROXY"].contains { !(environment[$0] ?? "").isEmpty }
        unproxied = (environment["no_proxy"] ?? environment["NO_PROXY"] ?? "").split(separator: ",").map {
            var entry = $0.trimmingCharacters(in: .whitespaces).lowercased()
            if entry.hasPrefix(".") { entry.removeFirst() }
            return entry
        }.filter { !$0.isEmpty }
        #if canImport(FoundationNetworking)
        plain = proxied && unproxied.isEmpty ? nil : HTTP1Transport()
        #else
        plain = nil
        #endif
    }

    /// Whether `http` requests to `host` go to Baton's own transport: always without a proxy;
    /// with one, only to the hosts `no_proxy` names (the host, or a domain it is in).
    func routesToHTTP1(host: String) -> Bool {
        guard plain != nil else { return false }
        guard proxied, !unproxied.contains("*") else { return true }
        let host = host.lowercased()
        return unproxied.contains { host == $0 || host.hasSuffix("." + $0) }
    }

    /// Whether `http` requests go to Baton's own transport, whatever their host.
    var routesPlainHTTPToHTTP1: Bool { plain != nil && (!proxied || unproxied.contains("*")) }

    func send(_ request: URLRequest, body: TransportBody?, options: TransferOptions) -> Promise<HTTPResponse> {
        if let plain, let url = request.url, WireText.equalIgnoringCase(url.scheme ?? "", "http"),
           !proxied || routesToHTTP1(host: url.host ?? "") {
            return plain.send(request, body: body, options: options)
        }
        let session = session.withLock(annotating: self) { session in
            if let session { return session }
            let made = URLSessionTransport()
            session = made
            return made
        }
        return session.send(request, body: body, options: options)
    }
}
