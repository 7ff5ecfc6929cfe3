import BatonSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import BatonPromise

/// The `GET`s of one client in flight, by what makes two of them the same request, so that one
/// sent while an identical one is on the wire waits for that one's response instead of sending its
/// own (``Client/Configuration/mergesIdenticalRequests``).
///
/// Two requests are the same when their method, URL and every header field (after the
/// adapters: `Authorization` included) are, and they ask the same size limit. Each caller gets a
/// share of the one transfer (a shared promise): its own progress and response, which it validates
/// and decodes as usual; one caller cancelling leaves the transfer running for the others, and
/// the transfer stops when every caller has cancelled. Requests with a body, downloads to a file
/// and streams are never merged.
final class RequestMerger: Sendable {
    private let inFlight = Lock<[String: SharedPromise<HTTPResponse>]>([:])

    /// Sends `request` through `transport`, or joins the identical request in flight.
    func send(_ request: URLRequest, body: TransportBody?, options: TransferOptions, via transport: any Transport) -> Promise<HTTPResponse> {
        guard let key = Self.key(of: request, body: body, options: options) else {
            return transport.send(request, body: body, options: options)
        }
        // The transfer is entered as a relay, the transport called outside the lock.
        let (share, relay): (Promise<HTTPResponse>, Promise<HTTPResponse>?) = inFlight.withLock(annotating: self) { inFlight in
            if let running = inFlight[key], let share = running.shareIfRunning() { return (share, nil) }
            let relay = Promise<HTTPResponse>(upstream: nil)
            let shared = SharedPromise(relay)
            inFlight[key] = shared
            // Before any share: handlers run in the order they were added, so the transfer is
            // forgotten before any caller hears of it, and a request sent from a caller's
            // handler sends anew.
            relay.subscribe { [weak self] event in
                guard case .settled = event, let self else { return }
                self.forget(key, shared)
            }
            return (shared.share(), relay)
        }
        guard let relay else { return share }
        let work = transport.send(request, body: body, options: options)
        // Every caller cancelling cancels the relay, and so the transfer.
        relay.wait(for: work)
        work.subscribe { event in
            switch event {
            case .progress(let progress): relay.report(progress)
            case .settled(let outcome): relay.settle(outcome)
            }
        }
        if !relay.isPending { work.cancel() }
        return share
    }

    /// Forgets the transfer `shared` of `key`, unless another took its place.
    private func forget(_ key: String, _ shared: SharedPromise<HTTPResponse>) {
        inFlight.withLock(annotating: self) { inFlight in
            if inFlight[key] === shared { inFlight[key] = nil }
        }
    }

    /// What makes two requests the same; `nil` for one never merged.
    static func key(of request: URLRequest, body: TransportBody?, options: TransferOptions) -> String? {
        let method = request.httpMethod ?? "GET"
        guard method == "GET" || method == "HEAD", body == nil, request.httpBody == nil, options.destination == .memory,
              let url = request.url?.absoluteString
        else { return nil }
        let fields = (request.allHTTPHeaderFields ?? [:]).map { "\($0.key.lowercased()): \($0.value)" }.sorted()
        return ([method + " " + url, "limit: \(options.maximumResponseSize)"] + fields).joined(separator: "\n")
    }
}
