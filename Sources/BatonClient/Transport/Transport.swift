import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import BatonPromise

/// Moves one HTTP exchange over the wire: Baton's ``Client`` builds, adapts, validates, decodes
/// and retries; a transport only sends what it is given and reports what came back.
///
/// ``HTTP1Transport`` (Baton's own HTTP/1.1, the default for `http` on Linux) and
/// ``URLSessionTransport`` are the real ones. ``StubTransport`` answers from a table, for unit
/// tests of your own code. Write your own to route requests elsewhere.
///
/// A transport's promise must:
/// - fulfil with the response, whatever its status code (validation is the client's job), or
///   reject with a `URLError` when no complete response arrived;
/// - report progress in bytes: while the request's body is being sent, bytes sent out of the
///   body's length; then bytes received: as they arrive, out of the response's declared length
///   (`nil` total if it has none), when ``TransferOptions/tracksDownloadProgress`` asks for it;
///   otherwise it may report them once, complete (the total then being what arrived);
/// - keep no more than ``TransferOptions/maximumResponseSize`` bytes of a response: past it, stop
///   the transfer and reject with `URLError(.dataLengthExceedsMaximum)` (the client checks the
///   size of what a transport hands back too, but only a transport can stop reading);
/// - stop the exchange on the wire when cancelled.
public protocol Transport: Sendable {
    /// Sends `request` with `body` (which replaces any `httpBody` the request has), as `options`
    /// ask.
    func send(_ request: URLRequest, body: TransportBody?, options: TransferOptions) -> Promise<HTTPResponse>
}

extension URLRequest {
    /// This request with `body` in `httpBody`, as it goes on the wire (a file body stays on disk:
    /// `httpBody` is left as it is).
    func carrying(_ body: TransportBody?) -> URLRequest {
        guard let data = body?.data else { return self }
        var request = self
        request.httpBody = data
        return request
    }
}
