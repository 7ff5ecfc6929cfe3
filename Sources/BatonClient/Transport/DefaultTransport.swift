import BatonSupport
import BatonOpenSSL
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import BatonPromise
import BatonWire

/// The transport of a client made without one: on Linux, ``HTTP1Transport`` for `http` and
/// `https` requests; on Apple platforms, ``URLSessionTransport`` for all.
///
/// On Linux, a request goes to URLSession instead when:
/// - the environment names a proxy for its scheme (`http_proxy`, `https_proxy`, or their
///   upper-case forms), or for every scheme (`all_proxy`, `ALL_PROXY`), as libcurl honours them,
///   unless `no_proxy` (or `NO_PROXY`) names its host: Baton's own transport does not speak
///   through a proxy;
/// - it is `https` and OpenSSL 3 cannot be loaded here. The client's monitors are then told once,
///   by a ``ConnectionEvent/Kind/handedOver`` event saying why.
final class DefaultTransport: Transport {
    private let own: HTTP1Transport?
    /// Which schemes have a proxy set: then only the hosts in `unproxied` go to `own`.
    private let proxiedSchemes: Set<String>
    /// The `no_proxy` entries, lower-cased, without a leading dot; `*` for every host.
    private let unproxied: [String]
    /// Why `https` cannot go to `own`: OpenSSL is missing; `nil` when it can.
    private let tlsUnavailable: String?
    /// Whether the monitors have been told that `https` goes to URLSession.
    private let toldOfHandover = Lock(false)
    /// Made on the first request that needs it: a client whose requests all go to Baton's own
    /// transport never opens a URLSession.
    private let session = Lock<URLSessionTransport?>(nil)

    init(environment: [String: String] = ProcessInfo.processInfo.environment,
         openSSL: Result<Void, OpenSSLUnavailable> = OpenSSL.loaded.map { _ in }) {
        proxiedSchemes = Set(["http", "https"].filter { scheme in
            ["\(scheme)_proxy", "\(scheme.uppercased())_PROXY", "all_proxy", "ALL_PROXY"].contains { !(environment[$0] ?? "").isEmpty }
        })
        unproxied = (environment["no_proxy"] ?? environment["NO_PROXY"] ?? "").split(separator: ",").map {
            var entry = $0.trimmingCharacters(in: .whitespaces).lowercased()
            if entry.hasPrefix(".") { entry.removeFirst() }
            return entry
        }.filter { !$0.isEmpty }
        if case .failure(let unavailable) = openSSL {
            tlsUnavailable = unavailable.reason
        } else {
            tlsUnavailable = nil
        }
        #if canImport(FoundationNetworking)
        own = HTTP1Transport()
        #else
        own = nil
        #endif
    }

    /// Baton's own transport, where it serves.
    var ownTransport: HTTP1Transport? { own }
    /// The URLSession transport, once a request has needed it.
    var startedSession: URLSessionTransport? { session.withLock(annotating: self) { $0 } }

    /// Whether requests of `scheme` to `host` go to Baton's own transport.
    func routesToHTTP1(scheme: String = "http", host: String) -> Bool {
        guard own != nil else { return false }
        let scheme = scheme.lowercased()
        guard scheme == "http" || (scheme == "https" && tlsUnavailable == nil) else { return false }
        guard proxiedSchemes.contains(scheme), !unproxied.contains("*") else { return true }
        let host = host.lowercased()
        return unproxied.contains { host == $0 || host.hasSuffix("." + $0) }
    }

    /// Whether `http` requests go to Baton's own transport, whatever their host.
    var routesPlainHTTPToHTTP1: Bool { own != nil && (!proxiedSchemes.contains("http") || unproxied.contains("*")) }

    func send(_ request: URLRequest, body: TransportBody?, options: TransferOptions) -> Promise<HTTPResponse> {
        let scheme = request.url?.scheme ?? ""
        // `no_proxy` is matched against the host the request would connect to.
        let host = request.url.flatMap { try? CanonicalHost($0) }?.name ?? ""
        if let own, routesToHTTP1(scheme: scheme, host: host) {
            return own.send(request, body: body, options: options)
        }
        if own != nil, let tlsUnavailable, WireText.equalIgnoringCase(scheme, "https") {
            tellOfHandover(tlsUnavailable, request: request, options: options)
        }
        let session = session.withLock(annotating: self) { session in
            if let session { return session }
            let made = URLSessionTransport()
            session = made
            return made
        }
        return session.send(request, body: body, options: options)
    }

    /// Tells the monitors, the first time only, that `https` goes to URLSession, and why.
    private func tellOfHandover(_ reason: String, request: URLRequest, options: TransferOptions) {
        guard let observer = options.connectionEvents else { return }
        let first = toldOfHandover.withLock(annotating: self) { told in
            defer { told = true }
            return !told
        }
        guard first else { return }
        let server = request.url.map { "\($0.host ?? ""):\($0.port ?? 443)" } ?? ""
        observer(ConnectionEvent(.handedOver, server: server, connection: 0, reason:
            "https goes through URLSessionTransport, as Baton's own transport cannot speak TLS here: \(reason)"))
    }
}
