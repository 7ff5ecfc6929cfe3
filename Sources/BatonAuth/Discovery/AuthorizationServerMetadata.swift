import Foundation

/// The endpoints an authorization server publishes in its metadata (RFC 8414), as far as Baton
/// uses them, read and checked.
///
/// The metadata says where passwords, codes and tokens are to be sent, so it is trusted only when it
/// names the issuer it was asked for (RFC 8414 §3.3), and, for an https issuer, only https
/// endpoints: a downgraded endpoint would send them in the clear.
struct AuthorizationServerMetadata: Equatable {
    var tokenEndpoint: URL
    var authorizationEndpoint: URL?
    var deviceAuthorizationEndpoint: URL?
    var revocationEndpoint: URL?

    /// Why metadata is not usable.
    struct Unusable: Error, Equatable {
        var reason: String
    }

    /// Where `issuer` publishes its metadata (RFC 8414 §3.1): `/.well-known/oauth-authorization-server`
    /// between the host and the issuer's path. `nil` when the issuer is not an http or https URL
    /// with a host and without a query or fragment.
    static func address(of issuer: URL) -> URL? {
        guard var components = URLComponents(url: issuer, resolvingAgainstBaseURL: true),
              let scheme = components.scheme?.lowercased(), scheme == "https" || scheme == "http",
              components.host?.isEmpty == false, components.percentEncodedQuery == nil, components.percentEncodedFragment == nil
        else { return nil }
        var path = components.percentEncodedPath
        if path.hasSuffix("/") { path.removeLast() }
        components.percentEncodedPath = "/.well-known/oauth-authorization-server" + path
        return components.url
    }

    /// Reads the JSON metadata `body` that `issuer` published.
    init(json body: Data, issuer: URL) throws(Unusable) {
        guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any] else {
            throw Unusable(reason: "the metadata is not a JSON object")
        }
        guard let named = object["issuer"] as? String else {
            throw Unusable(reason: "the metadata names no issuer")
        }
        guard Self.trimmed(named) == Self.trimmed(issuer.absoluteString) else {
            throw Unusable(reason: "the metadata names another issuer than the one asked for, so it may not be this server's")
        }
        let secure = issuer.scheme?.lowercased() == "https"
        func endpoint(_ name: String) throws(Unusable) -> URL? {
            guard let value = object[name] else { return nil }
            guard let text = value as? String, let url = URL(string: text), let scheme = url.scheme?.lowercased(),
                  scheme == "https" || (scheme == "http" && !secure), url.host?.isEmpty == false, url.fragment == nil
            else {
                throw Unusable(reason: "its \(name) is not \(secure ? "an https" : "an http or https") URL")
            }
            return url
        }
        guard let token = try endpoint("token_endpoint") else {
            throw Unusable(reason: "the metadata has no token_endpoint")
        }
        tokenEndpoint = token
        authorizationEndpoint = try endpoint("authorization_endpoint")
        deviceAuthorizationEndpoint = try endpoint("device_authorization_endpoint")
        revocationEndpoint = try endpoint("revocation_endpoint")
    }

    /// `text` without one final `/`, so that `https://auth.example.com/` names the same issuer as
    /// `https://auth.example.com`.
    private static func trimmed(_ text: String) -> Substring {
        text.hasSuffix("/") ? text.dropLast() : Substring(text)
    }
}
