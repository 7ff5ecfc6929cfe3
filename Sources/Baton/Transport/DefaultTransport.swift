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
/// (`http_proxy` or `HTTP_PROXY`, which libcurl honours, with `no_proxy`): Baton's own transport
/// does not speak through a proxy.
final class DefaultTransport: Transport {
    private let plain: (any Transport)?
    /// Made on the first request that needs it: a client that only speaks `http` never opens a
    /// URLSession.
    private let session = Lock<URLSessionTransport?>(nil)

    init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        #if canImport(FoundationNetworking)
        let proxied = ["http_proxy", "HTTP_PROXY"].contains { !(environment[$0] ?? "").isEmpty }
        plain = proxied ? nil : HTTP1Transport()
        #else
        plain = nil
        #endif
    }

    /// Whether `http` requests go to Baton's own transport.
    var routesPlainHTTPToHTTP1: Bool { plain != nil }

    func send(_ request: URLRequest, body: TransportBody?, options: TransferOptions) -> Promise<HTTPResponse> {
        if let plain, request.url?.scheme?.lowercased() == "http" {
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
