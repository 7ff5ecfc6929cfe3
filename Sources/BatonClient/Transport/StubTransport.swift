import BatonSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import BatonPromise

/// A ``Transport`` that answers without a network, for unit tests of code that uses a
/// ``Client``.
///
/// Give it a closure that answers each request; it records every request it was sent.
///
/// ```swift
/// import XCTest
///
/// let transport = StubTransport { request, _ in
///     switch request.url?.path {
///     case "/orders/1": return .json(#"{"id":1,"name":"Smith","ordersum":2,"subtotal":1200,"bikou":""}"#)
///     default: return HTTPResponse(statusCode: 404)
///     }
/// }
/// let client = try Client(baseURL: URL(string: "https://api.test/")!, transport: transport)
/// let order = try await client.send(Request<Order>(.get, "orders/1")).value
/// XCTAssertEqual(transport.requests.map(\.url?.path), ["/orders/1"])
/// ```
///
/// Throwing a `URLError` from the closure makes the attempt fail as a transport failure would.
/// Responses are delivered asynchronously on a global queue, as a real transport's are.
public final class StubTransport: Transport {
    private let respond: @Sendable (URLRequest, TransportBody?) throws -> HTTPResponse
    private let recorded = Locked<[URLRequest]>([])

    /// Creates a transport that answers with what `respond` returns or throws.
    public init(_ respond: @escaping @Sendable (_ request: URLRequest, _ body: TransportBody?) throws -> HTTPResponse) {
        self.respond = respond
    }

    /// Every request sent so far, in order (with its body in `httpBody` when it had data).
    public var requests: [URLRequest] {
        recorded.withLock { $0 }
    }

    /// Records `request` (with a data body in `httpBody`) and answers it with the closure, on a global
    /// queue: see ``Transport/send(_:body:options:)``. Reports no progress: a stubbed response
    /// arrives whole, and nothing is sent. The client holds a stubbed response to its
    /// ``Client/Configuration/maximumResponseSize`` as it would a real one.
    public func send(_ request: URLRequest, body: TransportBody?, options: TransferOptions = TransferOptions()) -> Promise<HTTPResponse> {
        let sent = request.carrying(body)
        recorded.withLock { $0.append(sent) }
        let respond = self.respond
        return Promise { _, fulfill, reject, _ in
            DispatchQueue.global().async {
                do { fulfill(try respond(sent, body)) } catch { reject(error) }
            }
        }
    }
}
