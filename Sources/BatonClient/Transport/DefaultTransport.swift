import BatonSupport
import BatonOpenSSL
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import BatonPromise
import BatonWire

/// The transport of a client made without one: on Linux, ``HTTP1Transport`` for `http` and
/// `https` requests, through the proxies the environment names; on Apple platforms,
/// ``URLSessionTransport`` for all.
///
/// On Linux, an `https` request goes to URLSession instead only when OpenSSL 3 cannot be loaded
/// here. The client's monitors are then told once, by a ``ConnectionEvent/Kind/handedOver``
/// event saying why.
final class DefaultTransport: Transport {
    private let own: HTTP1Transport?
    /// Why `https` cannot go to `own`: OpenSSL is missing; `nil` when it can.
    private let tlsUnavailable: String?
    /// Whether the monitors have been told that `https` goes to URLSession.
    private let toldOfHandover = Lock(false)
    /// Made on the first request that needs it: a client whose requests all go to Baton's own
    /// transport never opens a URLSession.
    private let session = Lock<URLSessionTransport?>(nil)

    init(environment: [String: String] = ProcessInfo.processInfo.environment,
         openSSL: Result<Void, OpenSSLUnavailable> = OpenSSL.loaded.map { _ in }) {
        if case .failure(let unavailable) = openSSL {
            tlsUnavailable = unavailable.reason
        } else {
            tlsUnavailable = nil
        }
        #if canImport(FoundationNetworking)
        var configuration = HTTP1Transport.Configuration()
        configuration.proxies = .environment(environment)
        own = HTTP1Transport(configuration: configuration)
        #else
        own = nil
        #endif
    }

    /// Baton's own transport, where it serves.
    var ownTransport: HTTP1Transport? { own }
    /// The URLSession transport, once a request has needed it.
    var startedSession: URLSessionTransport? { session.withLock(annotating: self) { $0 } }

    /// Whether requests of `scheme` go to Baton's own transport.
    func routesToHTTP1(scheme: String) -> Bool {
        guard own != nil else { return false }
        return WireText.equalIgnoringCase(scheme, "http") || (WireText.equalIgnoringCase(scheme, "https") && tlsUnavailable == nil)
    }

    func send(_ request: URLRequest, body: TransportBody?, options: TransferOptions) -> Promise<HTTPResponse> {
        let scheme = request.url?.scheme ?? ""
        if let own, routesToHTTP1(scheme: scheme) {
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
