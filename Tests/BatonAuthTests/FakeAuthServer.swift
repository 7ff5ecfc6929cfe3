import BatonSupport
@testable import BatonClient
@testable import BatonAuth
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TestSupport
import XCTest

/// A token endpoint and an API behind one stub transport, whose responses each test shapes: the
/// authenticator's own logic, without sockets (the integration tests cover the real server).
final class FakeAuthServer: Sendable {
    struct State {
        var valid: Set<String> = []
        var issued = 0
        var tokenRequests: [URLRequest] = []
        var tokenBodies: [String] = []
        /// The `Authorization` of every API request, in the order they arrived ("" for none).
        var apiAuthorizations: [String] = []
        /// What `POST /token` responses; by default a new RFC 6749 token.
        var tokenResponse: ((Int) -> Result<HTTPResponse, URLError>)?
        /// What a refused API request gets.
        var refusal = HTTPResponse(statusCode: 401, headers: ["WWW-Authenticate": "Bearer error=\"invalid_token\""])
        /// Whether newly issued tokens work (false: the server refuses every token).
        var acceptsNewTokens = true
    }

    let state = Locked(State())

    /// The transport: `/token` issues tokens, anything else needs a valid one.
    var transport: StubTransport {
        StubTransport { [state] request, body in
            if request.url?.path == "/token" {
                let text = body?.data.map { String(decoding: $0, as: UTF8.self) } ?? ""
                let answer: Result<HTTPResponse, URLError> = state.withLock { state in
                    state.tokenRequests.append(request)
                    state.tokenBodies.append(text)
                    state.issued += 1
                    let number = state.issued
                    if let custom = state.tokenResponse { return custom(number) }
                    if state.acceptsNewTokens { state.valid.insert("access-\(number)") }
                    return .success(.json("{\"access_token\": \"access-\(number)\", \"token_type\": \"bearer\", \"expires_in\": 3600, \"refresh_token\": \"refresh-\(number)\"}"))
                }
                return try answer.get()
            }
            let value = request.value(forHTTPHeaderField: "Authorization") ?? ""
            return state.withLock { state in
                state.apiAuthorizations.append(value)
                guard value.hasPrefix("Bearer "), state.valid.contains(String(value.dropFirst(7))) else { return state.refusal }
                return .json(#"{"id": 1, "name": "a", "ordersum": 1, "subtotal": 1, "bikou": ""}"#)
            }
        }
    }

    var tokenRequestCount: Int { state.withLock { $0.tokenRequests.count } }

    /// The `Authorization` of every API request so far.
    var apiAuthorizations: [String] { state.withLock { $0.apiAuthorizations } }

    /// Every token stops working.
    func expireAll() {
        state.withLock { $0.valid.removeAll() }
    }
}
