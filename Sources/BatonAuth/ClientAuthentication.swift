import Foundation
import BatonClient

/// How an ``Authenticator`` identifies the app itself to the authorization server (RFC 6749 §2.3):
/// not at all, with the client id (and secret) in the form body, or with HTTP Basic.
///
/// An app on a phone or a computer is a public client: it has an id but cannot keep a secret, so it
/// uses ``formBody(clientID:secret:)`` without one. The authorization code and device grants need
/// the id; the client credentials grant needs a secret too.
///
/// ```swift
/// let authenticator = try Authenticator(tokenURL: api.appending(path: "tokens")) { configuration in
///     configuration.clientAuthentication = .basic(clientID: "ios-app", secret: secret)
/// }
/// ```
public struct ClientAuthentication: Sendable {
    enum Method: Sendable {
        case none
        case formBody(clientID: String, secret: String?)
        case basic(clientID: String, secret: String)
    }

    let method: Method

    /// No client authentication: the demo API, and servers that know the app by other means.
    public static let none = ClientAuthentication(method: .none)

    /// `client_id` (and `client_secret`, if given) as fields of the form body (RFC 6749 §2.3.1):
    /// for public clients, which have only an id, and servers that ask for it.
    public static func formBody(clientID: String, secret: String? = nil) -> ClientAuthentication {
        ClientAuthentication(method: .formBody(clientID: clientID, secret: secret))
    }

    /// `Authorization: Basic` with the id and secret, each form-encoded first as RFC 6749 §2.3.1
    /// requires: what every authorization server must support.
    public static func basic(clientID: String, secret: String) -> ClientAuthentication {
        ClientAuthentication(method: .basic(clientID: clientID, secret: secret))
    }

    /// The client id, which the authorization code and device grants send the user's consent to.
    var clientID: String? {
        switch method {
        case .none: nil
        case .formBody(let id, _), .basic(let id, _): id
        }
    }

    /// Whether the app proves who it is with a secret: what the client credentials grant needs.
    var hasSecret: Bool {
        switch method {
        case .none, .formBody(_, nil): false
        case .formBody, .basic: true
        }
    }

    /// The form fields to add to a token request.
    var formFields: [(name: String, value: String)] {
        guard case .formBody(let id, let secret) = method else { return [] }
        return [("client_id", id)] + (secret.map { [("client_secret", $0)] } ?? [])
    }

    /// The headers to add to a token request.
    var headers: [String: String] {
        guard case .basic(let id, let secret) = method else { return [:] }
        let pair = RequestBody.formEncode(id) + ":" + RequestBody.formEncode(secret)
        return ["Authorization": "Basic " + Data(pair.utf8).base64EncodedString()]
    }
}
